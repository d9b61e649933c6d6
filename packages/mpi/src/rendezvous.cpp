#include "rendezvous.hpp"

#include "dapetra/wire/mix.hpp"

#include <algorithm>
#include <string>

#include "collectives.hpp"
#include "dapetra/mpi/agree.hpp"
#include "dapetra/error.hpp"

namespace dapetra::mpi::detail {
namespace {

// Pieces sent to the settling processes: (first index, length, first
// position), and the owner their holder names when held owners are given.
using Pieces = Outbox;
inline int piece_words(const std::vector<int>* held_owners) { return held_owners ? 4 : 3; }

Pieces runs_by_stretch(const std::vector<std::int64_t>& indices, std::int64_t chunk, const std::vector<int>* held_owners) {
  Pieces pieces;
  const auto same_owner_named = [held_owners](std::size_t j) { return !held_owners || (*held_owners)[j] == (*held_owners)[j - 1]; };
  for (std::size_t i = 0; i < indices.size();) {
    const std::int64_t first = indices[i];
    const int dest = static_cast<int>(first / chunk);
    const std::int64_t end_of_stretch = (dest + 1) * chunk;
    std::size_t j = i + 1;
    while (j < indices.size() && indices[j] == indices[j - 1] + 1 && indices[j] < end_of_stretch && same_owner_named(j)) ++j;
    std::vector<std::int64_t>& to = pieces[dest];
    to.insert(to.end(), {first, static_cast<std::int64_t>(j - i), static_cast<std::int64_t>(i)});
    if (held_owners) to.push_back((*held_owners)[i]);
    i = j;
  }
  return pieces;
}

// What the settling process knows of its stretch. Most indices are held by
// one process (the bulk of a partition): their owner is their holder, and
// nothing is kept per index for them. Only the indices held more than once
// are listed, each with its holders (rank order: senders arrive so) and the
// owner picked among them. The work is in proportion to the runs received
// and the shared indices, plus one pass of counting over the stretch.
struct Stretch {
  std::int64_t lo = 0;
  std::vector<std::int64_t> shared;           // stretch positions held more than once, ascending
  std::vector<std::size_t> first;             // shared[j]'s holders: [first[j], first[j + 1])
  std::vector<int> rank, named_owner;               // each holder, and the owner it names (-1: none)
  std::vector<std::int64_t> at;               // where each holder keeps the index
  std::vector<int> owner;                     // per shared index: the owner picked (-1: none)
  std::vector<std::int64_t> where;            // and where the owner keeps it

  // The shared positions in [from, to).
  std::pair<std::size_t, std::size_t> shared_in(std::int64_t from, std::int64_t to) const {
    return {static_cast<std::size_t>(std::lower_bound(shared.begin(), shared.end(), from) - shared.begin()),
            static_cast<std::size_t>(std::lower_bound(shared.begin(), shared.end(), to) - shared.begin())};
  }
};

// Calls f(sender, first stretch position, count, sender's first position,
// owner it names or -1) for every run received in pieces of `words` words.
template <class F>
void for_each_run(const Inbox& in, std::int64_t lo, int words, F&& f) {
  for (std::size_t k = 0; k < in.count(); ++k)
    for (const std::int64_t* w = in.of(k); w < in.of(k) + in.size(k); w += words)
      f(in.sources[k], w[0] - lo, w[1], w[2], words == 4 ? static_cast<int>(w[3]) : -1);
}

// The indices held more than once, with their holders; each one's owner is
// its lowest holder until a rule or the held owners say otherwise.
Stretch settle_stretch(const Inbox& in, std::int64_t lo, std::size_t length, int words) {
  Stretch s;
  s.lo = lo;
  std::vector<std::int32_t> held(length + 1, 0);  // holders per position, from differences
  for_each_run(in, lo, words, [&](int, std::int64_t from, std::int64_t count, std::int64_t, int) {
    ++held[static_cast<std::size_t>(from)];
    --held[static_cast<std::size_t>(from + count)];
  });
  std::int32_t running = 0;
  std::vector<std::size_t> holders_of;
  for (std::size_t i = 0; i < length; ++i) {
    running += held[i];
    if (running > 1) {
      s.shared.push_back(static_cast<std::int64_t>(i));
      holders_of.push_back(static_cast<std::size_t>(running));
    }
  }
  s.first.assign(s.shared.size() + 1, 0);
  for (std::size_t j = 0; j < s.shared.size(); ++j) s.first[j + 1] = s.first[j] + holders_of[j];
  s.rank.resize(s.first.back());
  s.named_owner.resize(s.first.back());
  s.at.resize(s.first.back());
  std::vector<std::size_t> next(s.first.begin(), s.first.end() - 1);
  for_each_run(in, lo, words, [&](int p, std::int64_t from, std::int64_t count, std::int64_t at, int named_owner) {
    const auto [b, e] = s.shared_in(from, from + count);
    for (std::size_t j = b; j < e; ++j) {
      const std::size_t h = next[j]++;
      s.rank[h] = p;
      s.named_owner[h] = named_owner;
      s.at[h] = at + (s.shared[j] - from);
    }
  });
  s.owner.resize(s.shared.size());
  s.where.resize(s.shared.size());
  for (std::size_t j = 0; j < s.shared.size(); ++j) {
    s.owner[j] = s.rank[s.first[j]];
    s.where[j] = s.at[s.first[j]];
  }
  return s;
}

// The refusals of owners: of held owners, written once for
// both settling paths (settle_held_owners over stretches, confirm_held_owners by
// pairs), and of a rule's choice, for both rule paths.

// The rule, asked on process `me`, chose `chosen`, which does not hold g.
Problem not_a_holder(int me, int chosen, std::int64_t g) {
  return Problem::of(me, "shared_owner", std::to_string(chosen), "the shared-index owner rule picks a process holding the index",
                     "the rule chose rank " + std::to_string(chosen) + ", which does not hold index " + std::to_string(g), 0);
}

// Holder `rank` names `named` the owner of g where another holder named `other`.
Problem disagreeing_held_owners(std::int64_t g, int rank, int named, int other) {
  return {rank, 0, "held_owners", std::to_string(named), "every process holding an index names the same owner",
          "rank " + std::to_string(rank) + " names rank " + std::to_string(named) + " the owner of index " +
              std::to_string(g) + ", another holder names rank " + std::to_string(other)};
}

// `named` is named the owner of g but does not hold it (`rank`: the holder
// at fault, or -1 when the settling process cannot tell which).
Problem owner_not_holding(std::int64_t g, int rank, int named) {
  return {rank, 0, "held_owners", std::to_string(named), "the owner named holds the index",
          "rank " + std::to_string(named) + " is named the owner of index " + std::to_string(g) +
              ", which it does not hold"};
}

// The owners of a stretch settled (settle_stretch) from pieces with
// held owners: each index's owner is what its first holder names,
// confirmed when every holder names the same and the named one holds it
// (its own position is then `where`). Returns the problems of those that
// do not (at most max_listed_problems).
std::vector<Problem> settle_held_owners(const Inbox& in, Stretch& s) {
  std::vector<Problem> problems;
  std::vector<std::pair<std::int64_t, int>> unheld;  // (index, owner named) where the owner named does not hold it
  for (std::size_t j = 0; j < s.shared.size(); ++j) {  // several holders: all name one owner, who holds it
    const std::int64_t g = s.lo + s.shared[j];
    const int named = s.named_owner[s.first[j]];
    s.owner[j] = named;
    s.where[j] = -1;
    for (std::size_t h = s.first[j]; h < s.first[j + 1]; ++h) {
      if (s.named_owner[h] != named) list_problem(problems, disagreeing_held_owners(g, s.rank[h], s.named_owner[h], named));
      if (s.rank[h] == named) s.where[j] = s.at[h];
    }
    if (s.where[j] < 0) unheld.emplace_back(g, named);
  }
  // One holder: it must name itself.
  for_each_run(in, s.lo, 4, [&](int p, std::int64_t from, std::int64_t count, std::int64_t, int named_owner) {
    if (named_owner == p) return;
    auto [b, e] = s.shared_in(from, from + count);
    for (std::int64_t i = from; i < from + count && unheld.size() <= max_listed_problems; ++i) {
      if (b < e && s.shared[b] == i) {
        ++b;
        continue;
      }
      unheld.emplace_back(s.lo + i, named_owner);
    }
  });
  std::sort(unheld.begin(), unheld.end());
  for (const auto& [g, named] : unheld) list_problem(problems, owner_not_holding(g, -1, named));
  return problems;
}

// The rule's owner for every index of the stretch held more than once. Only
// those indices' holders are listed (compressed rows: the bulk of a
// partition is held once). Returns the problems of a rule that picked a
// process not holding the index.
std::vector<Problem> apply_rule(Stretch& s, const SharedIndexOwner& rule, int me) {
  std::vector<Problem> problems;
  std::vector<int> holders;
  for (std::size_t j = 0; j < s.shared.size(); ++j) {
    holders.assign(s.rank.begin() + static_cast<std::ptrdiff_t>(s.first[j]),
                   s.rank.begin() + static_cast<std::ptrdiff_t>(s.first[j + 1]));
    const std::int64_t g = s.lo + s.shared[j];
    const int chosen = rule(g, holders);
    const auto pick = std::find(holders.begin(), holders.end(), chosen);
    if (pick == holders.end()) {
      list_problem(problems, not_a_holder(me, chosen, g));
      continue;
    }
    s.owner[j] = chosen;
    s.where[j] = s.at[s.first[j] + static_cast<std::size_t>(pick - holders.begin())];
  }
  return problems;
}

// Answers as runs (length, owner, owner's first position), per piece in the
// order the pieces came. A piece nobody else holds any index of (the bulk of
// a partition) is answered with one run: its sender owns it where it keeps it.
Pieces answer_pieces(const Inbox& in, const Stretch& s, int words) {
  Pieces answers;
  for (std::size_t k = 0; k < in.count(); ++k)
    for (const std::int64_t* w = in.of(k); w < in.of(k) + in.size(k); w += words) {
      const int p = in.sources[k];
      const std::int64_t from = w[0] - s.lo, length = w[1], at = w[2];
      std::vector<std::int64_t>& out = answers[p];
      // Runs of (length, owner, owner's first position), extended while the
      // next index continues the last one.
      const auto add = [&out, first = out.size()](std::int64_t n, std::int64_t owner, std::int64_t where) {
        if (out.size() > first && out[out.size() - 2] == owner && out[out.size() - 1] + out[out.size() - 3] == where)
          out[out.size() - 3] += n;
        else
          out.insert(out.end(), {n, owner, where});
      };
      auto [b, e] = s.shared_in(from, from + length);
      std::int64_t i = from;
      for (; b < e; ++b) {  // the sender's own stretch up to each shared index, then that index's owner
        if (s.shared[b] > i) add(s.shared[b] - i, p, at + (i - from));
        add(1, s.owner[b], s.where[b]);
        i = s.shared[b] + 1;
      }
      if (i < from + length) add(from + length - i, p, at + (i - from));
    }
  return answers;
}

// The answers arrive per process in the order its pieces were sent. They
// are read as runs (position, length, owner, owner's first position) and
// written out per position only past the leading positions this process
// owns at themselves (the bulk of a partition numbered by owner).
PrefixOwners read_answers(const Pieces& pieces, int words, const Inbox& back, std::size_t held, int me) {
  struct Run {
    std::int64_t pos, length, owner, at;
  };
  std::vector<Run> runs;
  for (const auto& [p, sent] : pieces) {
    const std::int64_t* k = back.of(back.index_of(p));
    for (std::size_t piece = 0; piece < sent.size(); piece += static_cast<std::size_t>(words)) {
      std::int64_t pos = sent[piece + 2], left = sent[piece + 1];
      for (; left > 0; k += 3) {
        runs.push_back({pos, k[0], k[1], k[2]});
        pos += k[0];
        left -= k[0];
      }
    }
  }
  std::sort(runs.begin(), runs.end(), [](const Run& x, const Run& y) { return x.pos < y.pos; });
  PrefixOwners result;
  std::size_t r = 0;
  for (; r < runs.size() && runs[r].pos == result.prefix && runs[r].owner == me && runs[r].at == runs[r].pos; ++r)
    result.prefix += static_cast<local_index_t>(runs[r].length);
  result.rest.owner.resize(held - static_cast<std::size_t>(result.prefix));
  result.rest.position.resize(held - static_cast<std::size_t>(result.prefix));
  for (; r < runs.size(); ++r)
    for (std::int64_t t = 0; t < runs[r].length; ++t) {
      const auto i = static_cast<std::size_t>(runs[r].pos + t - result.prefix);
      result.rest.owner[i] = static_cast<int>(runs[r].owner);
      result.rest.position[i] = static_cast<local_index_t>(runs[r].at + t);
    }
  return result;
}

// Spreads clustered (e.g. negative or strided) indices evenly over the
// settling processes.
std::uint64_t spread(std::int64_t g) { return splitmix64(static_cast<std::uint64_t>(g)); }

// One index's holders as the process settling it sees them: ranks in
// ascending order, where each keeps the index, and (for held owners)
// the owner each names.
struct Holders {
  std::vector<int> rank;
  std::vector<std::int64_t> position;
  std::vector<int> named_owner;
};

// The owner of g among its holders (the only one; else `*rule`'s choice, or
// the lowest without a rule) and where it keeps g. A rule that picks a
// process not holding g gives (-1, -1) and a problem naming it.
std::pair<int, std::int64_t> choose(const SharedIndexOwner* rule, std::int64_t g, const Holders& h, int me,
                                    std::vector<Problem>& problems) {
  const int chosen = h.rank.size() == 1 ? h.rank[0] : rule ? (*rule)(g, h.rank) : h.rank.front();
  const auto pick = std::find(h.rank.begin(), h.rank.end(), chosen);
  if (pick != h.rank.end()) return {chosen, h.position[static_cast<std::size_t>(pick - h.rank.begin())]};
  list_problem(problems, not_a_holder(me, chosen, g));
  return {-1, -1};
}

// The rendezvous by pairs: the (index, position) of every position goes to
// the process its index's hash names, with the owner it names when
// `held_owners` is given (one per position); each settling process groups what
// it got by index (senders in rank order) and settle(g, holders) names the
// owner and where it keeps g. A problem any settling process records (in
// `problems`) is thrown on every process before the answers return.
// Collective.
template <class Settle>
Owners settle_pairs(const std::vector<std::int64_t>& indices, Settle settle, std::vector<Problem>& problems, MPI_Comm comm,
                    const std::vector<int>* held_owners = nullptr) {
  const int stride = held_owners ? 3 : 2;  // words per index sent
  const auto P = static_cast<std::uint64_t>(size_of(comm));
  Outbox pairs;
  for (std::size_t i = 0; i < indices.size(); ++i) {
    auto& out = pairs[static_cast<int>(spread(indices[i]) % P)];
    out.insert(out.end(), {indices[i], static_cast<std::int64_t>(i)});
    if (held_owners) out.push_back((*held_owners)[i]);
  }
  const Inbox in = exchange_words(pairs, comm);

  struct Held {
    std::int64_t index;
    int sender;
    std::int64_t position;
    int named_owner;
    std::size_t arrival;  // where its answer goes
  };
  std::vector<Held> held;
  held.reserve(in.words.size() / static_cast<std::size_t>(stride));
  for (std::size_t s = 0; s < in.count(); ++s)
    for (std::size_t k = in.begin[s]; k < in.begin[s + 1]; k += static_cast<std::size_t>(stride))
      held.push_back({in.words[k], in.sources[s], in.words[k + 1], held_owners ? static_cast<int>(in.words[k + 2]) : -1,
                      k / static_cast<std::size_t>(stride)});
  std::stable_sort(held.begin(), held.end(), [](const Held& x, const Held& y) { return x.index < y.index; });
  std::vector<std::int64_t> answer(held.size() * 2, -1);  // (owner, position) in arrival order
  Holders holders;
  for (std::size_t i = 0; i < held.size();) {
    std::size_t j = i;
    holders.rank.clear();
    holders.position.clear();
    holders.named_owner.clear();
    for (; j < held.size() && held[j].index == held[i].index; ++j) {
      holders.rank.push_back(held[j].sender);
      holders.position.push_back(held[j].position);
      holders.named_owner.push_back(held[j].named_owner);
    }
    const auto [owner, where] = settle(held[i].index, holders);
    for (std::size_t k = i; k < j; ++k) {
      answer[2 * held[k].arrival] = owner;
      answer[2 * held[k].arrival + 1] = where;
    }
    i = j;
  }
  agree(std::move(problems), comm);
  Outbox answers;
  const auto per_word = [stride](std::size_t w) { return static_cast<std::ptrdiff_t>(w / static_cast<std::size_t>(stride) * 2); };
  for (std::size_t s = 0; s < in.count(); ++s)
    answers[in.sources[s]].assign(answer.begin() + per_word(in.begin[s]), answer.begin() + per_word(in.begin[s + 1]));
  const Inbox back = exchange_words(answers, comm);
  Owners result;
  result.owner.resize(indices.size());
  result.position.resize(indices.size());
  for (std::size_t s = 0; s < back.count(); ++s) {
    const std::vector<std::int64_t>& asked = pairs.at(back.sources[s]);
    for (std::size_t k = 0; k < back.size(s); k += 2) {
      const auto i = static_cast<std::size_t>(asked[k / 2 * static_cast<std::size_t>(stride) + 1]);
      result.owner[i] = static_cast<int>(back.of(s)[k]);
      result.position[i] = static_cast<local_index_t>(back.of(s)[k + 1]);
    }
  }
  return result;
}

// The held owner of g when every holder names the same one and it holds
// g; else (-1, -1) and a problem naming a holder at fault.
std::pair<int, std::int64_t> confirm_held_owners(std::int64_t g, const Holders& h, std::vector<Problem>& problems) {
  const int named = h.named_owner.front();
  for (std::size_t k = 1; k < h.rank.size(); ++k)
    if (h.named_owner[k] != named) {
      list_problem(problems, disagreeing_held_owners(g, h.rank[k], h.named_owner[k], named));
      return {-1, -1};
    }
  const auto pick = std::find(h.rank.begin(), h.rank.end(), named);
  if (pick != h.rank.end()) return {named, h.position[static_cast<std::size_t>(pick - h.rank.begin())]};
  list_problem(problems, owner_not_holding(g, h.rank[0], named));
  return {-1, -1};
}

}  // namespace

PrefixOwners holders_by_stretch(const std::vector<std::int64_t>& indices, std::int64_t size, const SharedIndexOwner* rule,
                                MPI_Comm comm, const std::vector<int>* held_owners) {
  const int P = size_of(comm), me = rank_of(comm);
  if (P == 1) return {static_cast<local_index_t>(indices.size()), {}};
  // Finite-element numberings are mostly runs, so the messages are far
  // smaller than the indices (a scattered numbering costs 3 words per index,
  // 4 with held owners; their runs also break where the owner named changes).
  const int words = piece_words(held_owners);
  const std::int64_t chunk = std::max<std::int64_t>(1, (size + P - 1) / P);
  const Pieces pieces = runs_by_stretch(indices, chunk, held_owners);
  const Inbox in = exchange_words(pieces, comm);
  const std::int64_t lo = me * chunk;
  const auto length = static_cast<std::size_t>(std::max<std::int64_t>(0, std::min(chunk, size - lo)));
  Stretch settled = settle_stretch(in, lo, length, words);
  if (held_owners) agree(settle_held_owners(in, settled), comm);
  else if (rule) agree(apply_rule(settled, *rule, me), comm);
  const Inbox back = exchange_words(answer_pieces(in, settled, words), comm);
  return read_answers(pieces, words, back, indices.size(), me);
}

Owners holders_by_rule(const std::vector<std::int64_t>& indices, const SharedIndexOwner& rule, MPI_Comm comm) {
  const int me = rank_of(comm);
  std::vector<Problem> problems;
  return settle_pairs(
      indices, [&](std::int64_t g, const Holders& h) { return choose(&rule, g, h, me, problems); }, problems, comm);
}

Owners holders_by_held_owners(const std::vector<std::int64_t>& indices, const std::vector<int>& held_owners, MPI_Comm comm) {
  std::vector<Problem> problems;
  return settle_pairs(
      indices, [&](std::int64_t g, const Holders& h) { return confirm_held_owners(g, h, problems); }, problems, comm, &held_owners);
}

Owners owners_from_ranges(const std::int64_t* indices, std::size_t n, const std::vector<std::int64_t>& boundaries) {
  Owners result;
  result.owner.resize(n);
  result.position.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int p = range_holding(boundaries, indices[i]);
    result.owner[i] = p;
    result.position[i] = static_cast<local_index_t>(indices[i] - boundaries[static_cast<std::size_t>(p)]);
  }
  return result;
}

}  // namespace dapetra::mpi::detail
