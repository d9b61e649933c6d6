// Internal: the steps of a DistributedLayout's creation, shared by the
// files that each do one of them: distributed_layout.cpp (the layout: what
// each process tells, the gather, the verdict, the public face),
// scattered_owners.cpp (owners along a lone 'u' axis whose indices stay on
// their processes) and grid_lines.cpp (records checked grid line by grid
// line on many processes).
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "comm.hpp"
#include "dapetra/mpi/distributed_layout.hpp"
#include "dapetra/wire/index_fingerprint.hpp"
#include "dapetra/wire/pack.hpp"

namespace dapetra::mpi::detail {

// What every process sends about the indices it holds along the scattered
// axis instead of the indices themselves. A one_to_one claim is confirmed
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

// The summaries of all processes, combined.
struct ScatteredSummary {
  bool default_rule = true;          // every process uses lowest_holder
  bool in_range = true;              // every index in [0, size)
  std::int64_t lowest_negative = 0;  // the lowest index held below 0, else 0
  std::int64_t held = 0;             // indices held, summed over processes
  bool fingerprint_matches = false;  // the fingerprints prove every index of [0, size) held once
  bool same_ranges = true;           // every process passed the same owned ranges (or none)
  bool claimed = false;              // some process passed held_owners
  std::vector<int> unclaimed;        // then, the processes holding indices that passed none
  std::vector<global_index_t> shown_ranges;  // owned ranges the leading runs show (empty: none)
};

// --- scattered_owners.cpp

// What this process tells of the indices it holds along the scattered axis.
IndexSummary summarize_indices(const Dim& u, int rank, int nprocs);
// Every process's summaries, combined (the same on every process).
ScatteredSummary combine_summaries(const std::vector<PackedRank>& all, const Dim& u);
// The rule an ownership gives (the default where ranges or claims name the owners).
SharedIndexOwner rule_of(const Ownership& ownership);
// This process's own checks of the owners it claims, or of the owned ranges it was given.
std::vector<Problem> check_held_owners(const std::vector<int>& claims, const std::vector<Dim>& dim_data, int scattered,
                                       int rank, int nprocs);
std::vector<Problem> check_owned_ranges(const std::vector<global_index_t>& starts, const std::vector<Dim>& dim_data,
                                        int scattered, int rank, int nprocs);

// --- grid_lines.cpp

// The lowest of each value over every process, and whether it is the same
// everywhere (one reduction: the minima of the values and of their negations).
struct MinMax {
  std::vector<std::int64_t> lowest;
  std::vector<bool> same;
};
MinMax min_max(const std::vector<std::int64_t>& values, MPI_Comm comm);
// This process found nothing wrong on its own and sits at the C-order grid
// coordinates of its rank in the grid its records describe.
bool sound_here(const PackedRank& mine, const std::vector<Dim>& dims, int rank, int nprocs);

// Whether, on every process alike, the records can be checked grid line by
// grid line. Collective (one reduction).
bool agree_on_grid_lines(const PackedRank& mine, const std::vector<Dim>& dims, int rank, int nprocs, MPI_Comm comm);
// The records of this process's grid lines, checked; null on every process
// alike if any line fails. Collective.
std::unique_ptr<GlobalLayout> gather_grid_lines(InnerComm& inner, const std::vector<Dim>& dims, int rank,
                                                const SharedIndexOwner& rule);

// --- closed_form.cpp

// Every process's records in closed form, when every axis is regular (an
// even 'b' split with the same halo everywhere, a 'c' axis, or an axis that
// is not distributed) and every process says the same of it: the records of
// any grid rank follow from a few numbers per axis, which one reduction of
// their fingerprint agrees on. Nothing is gathered. Null on every process
// alike when the layout is not regular (the caller then gathers); throws the
// same ValidationError on every process when the agreed records break a
// collective rule. Collective (one reduction of three words).
std::unique_ptr<GlobalLayout> closed_form_layout(const PackedRank& mine, const std::vector<Dim>& dims, int rank,
                                                 int nprocs, MPI_Comm comm, const SharedIndexOwner& rule);

// --- distributed_layout.cpp

// Every process's `report.problems`, on every process (collective).
std::vector<Problem> gathered_problems(const PackedRank& report, MPI_Comm comm);

struct LayoutBuilder {
  static std::shared_ptr<const DistributedLayout> create(const std::string& version, const BufferView& buffer,
                                                         const std::vector<Dim>& dim_data, MPI_Comm comm,
                                                         const DistributedLayoutOptions& options,
                                                         const std::vector<Problem>* unread = nullptr);
  static void gather_everything(DistributedLayout& self, const PackedRank& mine, const DistributedLayoutOptions& options);
  static void resolve_scattered(DistributedLayout& self, const ScatteredSummary& summary,
                                const DistributedLayoutOptions& options);
  static void count_owned(DistributedLayout& self);
  // Owners claimed by their holders: no rule names them (each holder knows
  // its own indices' owners only).
  static void mark_claimed(DistributedLayout& self) {
    self.owners_claimed_ = true;
    self.shared_owner_ = [](global_index_t g, const std::vector<int>&) -> int {
      throw std::logic_error("dapetra::mpi::DistributedLayout: the owner of index " + std::to_string(g) +
                             " was claimed by its holders (held_owners); no rule names it");
    };
  }
};

}  // namespace dapetra::mpi::detail
