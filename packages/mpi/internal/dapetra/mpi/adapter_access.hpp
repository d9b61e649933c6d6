// Internal, for Dapetra's own adapters (Tpetra, Python) and white-box tests:
// what they need of a DistributedLayout beyond its public face. Built
// against, never installed (packages/mpi/internal is no part of the package).
#pragma once

#include <mpi.h>

#include <vector>

#include "dapetra/error.hpp"
#include "dapetra/global_layout.hpp"
#include "dapetra/mpi/distributed_layout.hpp"

namespace dapetra::mpi::adapter {

// For bindings that read the protocol object themselves (the Python
// module): this process could not read its input (`problems`). Takes its
// part in the collective creation the other processes run with
// DistributedLayout::create, with the same options, and throws there the
// ValidationError every process throws, listing these problems under this
// rank; nobody waits. Collective over `comm`.
[[noreturn]] void refuse_layout(std::vector<Problem> problems, MPI_Comm comm, const DistributedLayoutOptions& options = {});

// The lowest global index held anywhere along axis 0 of a 1-D 'u' array
// (which may hold negative indices); 0 for every other layout.
global_index_t lowest_index(const DistributedLayout& layout);

// The 'u' axis whose indices stayed on their processes (settled without
// gathering), or -1.
int scattered_axis(const DistributedLayout& layout);

// Whether the owners along the layout's 'u' axis were named by their
// holders (Ownership::from_held_owners).
bool has_held_owners(const DistributedLayout& layout);

// The rank owning each position this process holds along the layout's
// 'u' axis, when that axis was settled without gathering (its only
// distributed axis, scattered_axis(layout) >= 0, and no records gathered); empty
// otherwise. Known since creation: no communication.
std::vector<int> owners_of_held(const DistributedLayout& layout);

// Every process's records, analysed, when the layout gathered them (all
// layouts but those whose only distributed axis is 'u'); nullptr otherwise.
const GlobalLayout* gathered_records(const DistributedLayout& layout);

// Collective over the layouts' communicator: every process passed the same
// layouts (made by the same collective creations) to `call`, in the same
// roles. One reduction of two words when they did; otherwise every process
// throws the same ValidationError naming each process whose layouts differ
// from rank 0's (and rank 0), before any process starts the call's
// exchanges. The plans, index maps and the adapters' collective creations
// start with it.
void agree_on_layouts(const std::vector<const DistributedLayout*>& layouts, const char* call);

}  // namespace dapetra::mpi::adapter
