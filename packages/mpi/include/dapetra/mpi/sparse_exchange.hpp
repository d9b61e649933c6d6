/// \file
/// dapetra/mpi/sparse_exchange.hpp: send words to a few processes, and receive
/// whatever is sent to this one without knowing who sends.
///
/// What a finite-element code needs to move cells to their parts, and what
/// Dapetra's own creation steps run on: each process names the processes it
/// sends to (its neighbours, never the whole communicator), and learns its
/// senders from what arrives. It is the NBX algorithm (Hoefler, Siebert and
/// Lumsdaine, PPoPP 2010), as DOLFINx and PETSc use it past a thousand
/// processes, in place of an all-to-all of counts: P words and P messages per
/// process.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace dapetra::mpi {

/// Words to send, by destination rank: only the destinations named get a
/// message (an empty list sends nothing; this process may name itself).
using Outbox = std::map<int, std::vector<std::int64_t>>;

/// What arrived, by source rank in ascending order: the words from
/// sources[k] are words[begin[k] ... begin[k + 1]).
struct Inbox {
  /// The ranks that sent words, ascending.
  std::vector<int> sources;
  /// Where each source's words begin in `words`, and one past the last.
  std::vector<std::size_t> begin{0};
  /// Every source's words, one after another.
  std::vector<std::int64_t> words;

  /// @return how many processes sent words.
  std::size_t count() const { return sources.size(); }
  /// @param k a place among the sources.
  /// @return the first of the words sources[k] sent.
  const std::int64_t* of(std::size_t k) const { return words.data() + begin[k]; }
  /// @param k a place among the sources.
  /// @return how many words sources[k] sent.
  std::size_t size(std::size_t k) const { return begin[k + 1] - begin[k]; }
  /// @param p a rank.
  /// @return the place of rank p among the sources, count() when it sent nothing.
  std::size_t index_of(int p) const;
};

/// Collective over `comm`: every process sends out[q] to each q it names and
/// receives what was sent to it: synchronous sends, receives of whatever
/// arrives, and a nonblocking reduction of two words entered once this
/// process's sends are matched. Cost per process: its own messages and that
/// reduction (O(log P) messages); nothing the size of the communicator. A
/// destination outside `comm`, or a message longer than MPI's int counts, is
/// refused on every process alike (ValidationError; a bad destination names its rank).
/// Every process of `comm` calls it, in the same order as its other
/// collectives on `comm`, from one thread at a time; its messages use tags
/// 32000 and 32001 of `comm`, which a code's own messages there should not.
/// @param out the words for each destination.
/// @param comm the communicator.
/// @return the words sent to this process, by source.
Inbox exchange_words(const Outbox& out, MPI_Comm comm);

}  // namespace dapetra::mpi
