// Internal: the steps of a DistributedLayout's creation, shared by the
// files that each do one of them: distributed_layout.cpp (the layout: what
// each process tells, the gather, the verdict, the public face),
// scattered_owners.cpp (owners along a lone 'u' axis whose indices stay on
// their processes) and grid_lines.cpp (records checked grid line by grid
// line on many processes).
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collectives.hpp"
#include "comm.hpp"
#include "dapetra/mpi/distributed_layout.hpp"
#include "dapetra/wire/index_fingerprint.hpp"
#include "dapetra/wire/pack.hpp"

namespace dapetra::mpi::detail {

// What every process sends about the indices it holds along the scattered
// axis instead of the indices themselves. A one_to_one flag is confirmed
// from the fingerprints (index_fingerprint.hpp) without moving any index:
// every process adds what it holds and subtracts its own stretch of [0,
// size); a zero total, with every index in [0, size) and the counts summing
// to size, means each index is held exactly once. Anything else is not
// trusted either way: the exact checks then run and name the indices at
// fault. Axes longer than fingerprint_limit take the exact path always.
struct IndexSummary {
  bool in_range = true;              // every index held lies in [0, size)
  std::int64_t lowest_negative = 0;  // the lowest index held below 0, else 0
  IndexFingerprint fingerprint;      // what is held minus this process's stretch
  std::size_t lead = 0;              // the leading run's length (leading_run)
};

// The summaries of all processes, combined (one Ballot).
struct ScatteredSummary {
  bool default_rule = true;          // every process uses lowest_holder
  bool in_range = true;              // every index in [0, size)
  std::int64_t lowest_negative = 0;  // the lowest index held below 0, else 0
  std::int64_t held = 0;             // indices held, summed over processes
  bool fingerprint_matches = false;  // the fingerprints prove every index of [0, size) held once
  bool same_ranges = true;           // every process passed the same owned ranges (or none)
  bool held_owners_given = false;              // some process passed held_owners
  std::int64_t without_held_owners = 0;        // then, how many processes hold indices but passed none ...
  int first_without_held_owners = -1;          // ... and the lowest of them
};

// Where a process's summary sits in the creation's vote.
struct SummaryPlaces {
  std::size_t default_rule, in_range, lowest_negative, ranges, held_owners_given, first_without_held_owners, without_held_owners, held, fingerprint;
};

// --- scattered_owners.cpp

// What this process tells of the indices it holds along the scattered axis.
IndexSummary summarize_indices(const Dim& u, int rank, int nprocs);
// This process's summary (PackedRank::extra), put to the vote, and after
// the vote every process's combined (the same on every process).
SummaryPlaces put_summary(Ballot& ballot, const PackedRank& mine, int rank);
ScatteredSummary read_summary(const Ballot& ballot, const SummaryPlaces& at, const Dim& u);
// The rule an ownership gives (the default where ranges or held owners name the owners).
SharedIndexOwner rule_of(const Ownership& ownership);
// This process's own checks of the owners it names, or of the owned ranges it was given.
std::vector<Problem> check_held_owners(const std::vector<int>& held_owners, const std::vector<Dim>& dim_data, int scattered,
                                       int rank, int nprocs);
std::vector<Problem> check_owned_ranges(const std::vector<global_index_t>& boundaries, const std::vector<Dim>& dim_data,
                                        int scattered, int rank, int nprocs);

// --- grid_lines.cpp

// This process found nothing wrong on its own and sits at the C-order grid
// coordinates of its rank in the grid its records describe.
bool sound_here(const PackedRank& mine, const std::vector<Dim>& dims, int rank, int nprocs);

// This process's fingerprint of a layout whose records can be checked grid
// line by grid line (two or more distributed axes, sound here); nothing
// otherwise. Every process must give the same one (the creation's vote).
std::optional<std::int64_t> grid_lines_fingerprint(const PackedRank& mine, const std::vector<Dim>& dims, int rank,
                                                   int nprocs);
// The records of this process's grid lines, checked; null on every process
// alike if any line fails. Collective.
std::unique_ptr<GlobalLayout> gather_grid_lines(InnerComm& inner, const std::vector<Dim>& dims, int rank,
                                                const SharedIndexOwner& rule);

// --- closed_form.cpp

// A regular layout: every axis an even 'b' split with the same halo
// everywhere, a 'c' axis, or an axis that is not distributed. Its records
// for any grid rank follow from a few numbers per axis, which this
// fingerprint folds (with the element type and memory order); nothing when
// the layout is not regular here. Every process must give the same one.
std::optional<std::int64_t> regular_fingerprint(const PackedRank& mine, const std::vector<Dim>& dims);
// Once every process gave the same regular_fingerprint: every grid rank's
// records, built here alone (nothing is gathered) and checked; throws the
// same ValidationError on every process when they break a collective rule.
std::unique_ptr<GlobalLayout> closed_form_layout(const std::vector<Dim>& dims, int rank, const SharedIndexOwner& rule);

// A layout whose 'b' axes are each split anywhere with one halo width (the
// other axes regular): its records follow from the same numbers and, per
// such axis, where each grid rank's owned range begins. This process's
// fingerprint of the numbers (every process must give the same one);
// nothing when the layout is not of this form here.
std::optional<std::int64_t> cut_fingerprint(const PackedRank& mine, const std::vector<Dim>& dims);
// Once every process gave the same cut_fingerprint: gathers where each
// process's owned range begins (one word per process and split axis) and
// builds every grid rank's records, checked. Null on every process alike
// when some process's records are not those of the split the words give
// (the caller then gathers everything); throws the same ValidationError on
// every process when they break a collective rule. Collective (a gather and
// a reduction).
std::unique_ptr<GlobalLayout> cut_layout(const std::vector<Dim>& dims, int rank, MPI_Comm comm,
                                         const SharedIndexOwner& rule);

// --- distributed_layout.cpp

// Every process's `report.problems`, on every process (collective).
std::vector<Problem> gathered_problems(const PackedRank& report, MPI_Comm comm);

struct LayoutBuilder {
  static std::shared_ptr<const DistributedLayout> create(const std::string& version, const BufferView& buffer,
                                                         const std::vector<Dim>& dim_data, MPI_Comm comm,
                                                         const DistributedLayoutOptions& options,
                                                         const std::vector<Problem>* unread = nullptr);
  static void gather_everything(DistributedLayout& self, const PackedRank& mine, const ScatteredSummary& summary,
                                const DistributedLayoutOptions& options);
  static void resolve_scattered(DistributedLayout& self, const ScatteredSummary& summary,
                                const DistributedLayoutOptions& options);
  static void count_owned(DistributedLayout& self);
  // Owners named by their holders: no rule names them (each holder knows
  // its own indices' owners only).
  static void mark_held_owners(DistributedLayout& self) {
    self.held_owners_given_ = true;
    self.shared_owner_ = [](global_index_t g, const std::vector<int>&) -> int {
      throw std::logic_error("dapetra::mpi::DistributedLayout: the owner of index " + std::to_string(g) +
                             " was named by its holders (held_owners); no rule names it");
    };
  }
};

}  // namespace dapetra::mpi::detail
