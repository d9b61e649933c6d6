#include "dapetra/tpetra/redistribute.hpp"

#include <Teuchos_DefaultMpiComm.hpp>
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <numeric>

#include "checked.hpp"
#include "collectives.hpp"

namespace dapetra::tpetra {
namespace {

using Run = RedistributionPlan::Run;

// Appends one element at `offset` to a list of runs, extending the last run
// when the element continues its stride.
void append(std::vector<Run>& runs, std::ptrdiff_t offset, std::ptrdiff_t item) {
  if (!runs.empty()) {
    Run& r = runs.back();
    if (r.count == 1) {
      r.step = offset - r.offset;
      r.count = 2;
      return;
    }
    if (offset == r.offset + static_cast<std::ptrdiff_t>(r.count) * r.step) {
      ++r.count;
      return;
    }
  }
  runs.push_back({offset, 1, item});
}

template <class Scalar>
char* pack(const std::vector<Run>& runs, const char* base, char* out) {
  for (const Run& r : runs) {
    if (r.step == static_cast<std::ptrdiff_t>(sizeof(Scalar)) || r.count == 1) {
      std::memcpy(out, base + r.offset, r.count * sizeof(Scalar));
      out += r.count * sizeof(Scalar);
    } else {
      const char* p = base + r.offset;
      for (std::size_t i = 0; i < r.count; ++i, p += r.step, out += sizeof(Scalar)) std::memcpy(out, p, sizeof(Scalar));
    }
  }
  return out;
}

template <class Scalar>
const char* unpack(const std::vector<Run>& runs, char* base, const char* in) {
  for (const Run& r : runs) {
    if (r.step == static_cast<std::ptrdiff_t>(sizeof(Scalar)) || r.count == 1) {
      std::memcpy(base + r.offset, in, r.count * sizeof(Scalar));
      in += r.count * sizeof(Scalar);
    } else {
      char* p = base + r.offset;
      for (std::size_t i = 0; i < r.count; ++i, p += r.step, in += sizeof(Scalar)) std::memcpy(p, in, sizeof(Scalar));
    }
  }
  return in;
}

// Copies element k of `from` runs to element k of `to` runs, for all k.
template <class Scalar>
void zip_copy(const std::vector<Run>& from, const char* src, const std::vector<Run>& to, char* dst) {
  std::size_t i = 0, j = 0, di = 0, dj = 0;  // run indices and positions inside them
  while (i < from.size() && j < to.size()) {
    const Run& a = from[i];
    const Run& b = to[j];
    const std::size_t n = std::min(a.count - di, b.count - dj);
    const char* p = src + a.offset + static_cast<std::ptrdiff_t>(di) * a.step;
    char* q = dst + b.offset + static_cast<std::ptrdiff_t>(dj) * b.step;
    const auto item = static_cast<std::ptrdiff_t>(sizeof(Scalar));
    if ((a.step == item || n == 1) && (b.step == item || n == 1)) {
      std::memmove(q, p, n * sizeof(Scalar));
    } else {
      for (std::size_t k = 0; k < n; ++k, p += a.step, q += b.step) std::memcpy(q, p, sizeof(Scalar));
    }
    di += n;
    dj += n;
    if (di == a.count) ++i, di = 0;
    if (dj == b.count) ++j, dj = 0;
  }
}

// This process's owned elements of `layout`, in increasing global (C-order
// flat) index, with the rank owning each in `other`: visit(offset, other_rank).
template <class Visit>
void owned_in_global_order(const TpetraLayout& layout, const GlobalLayout& other, Visit&& visit) {
  const std::vector<Dim>& dims = layout.dim_data();
  const int nd = static_cast<int>(dims.size());
  // Per axis: owned positions sorted by global index, their byte strides,
  // and the other layout's grid coordinate owning each global index.
  std::vector<std::vector<std::pair<global_index_t, global_index_t>>> axis(nd);  // (global, position)
  std::vector<std::vector<int>> other_coord(nd);
  for (int a = 0; a < nd; ++a) {
    const Dim& d = dims[a];
    for (global_index_t i = 0; i < local_extent(d); ++i)
      if (layout.is_owned_position(a, i)) axis[a].emplace_back(global_index(d, i), i);
    if (d.dist_type == DistType::unstructured) std::sort(axis[a].begin(), axis[a].end());
    for (const auto& gp : axis[a]) other_coord[a].push_back(other.axis(a).owner(gp.first));  // -1: not held there
    if (axis[a].empty()) return;
  }
  std::vector<int> grid_stride(nd, 1);
  for (int a = nd - 2; a >= 0; --a) grid_stride[a] = grid_stride[a + 1] * other.grid().shape()[a + 1];
  const std::vector<global_index_t>& strides = layout.local_strides();
  if (nd == 0) {
    visit(std::ptrdiff_t{0}, 0);
    return;
  }
  std::vector<std::size_t> k(nd, 0);
  while (true) {
    std::ptrdiff_t offset = 0;
    int rank = 0;
    bool held = true;
    for (int a = 0; a < nd; ++a) {
      offset += axis[a][k[a]].second * strides[a];
      rank += other_coord[a][k[a]] * grid_stride[a];
      held = held && other_coord[a][k[a]] >= 0;
    }
    visit(offset, held ? rank : -1);
    int a = nd - 1;
    while (a >= 0 && ++k[a] == axis[a].size()) k[a--] = 0;
    if (a < 0) return;
  }
}

MPI_Comm raw_comm(const Comm& comm) {
  const auto* mpi = dynamic_cast<const Teuchos::MpiComm<int>*>(&comm);
  return mpi ? static_cast<MPI_Comm>(*mpi->getRawMpiComm()) : MPI_COMM_SELF;
}

std::atomic<int> plans_created{0};

}  // namespace

RedistributionPlan::~RedistributionPlan() = default;

std::shared_ptr<const RedistributionPlan> RedistributionPlan::create(std::shared_ptr<const TpetraLayout> source,
                                                                     std::shared_ptr<const TpetraLayout> target,
                                                                     const RedistributionOptions& options) {
  std::shared_ptr<RedistributionPlan> self(new RedistributionPlan());
  self->source_ = source;
  self->target_ = target;
  self->tag_ = 27000 + (plans_created++ % 10000);
  const int me = source->rank(), nprocs = source->comm()->getSize();
  // Both sides judge the same gathered records, so every process agrees.
  if (!source->has_global_layout() || !target->has_global_layout())
    throw ValidationError({Problem{-1, -1, "scatter_unstructured", "true",
                                   "a redistribution plan needs both layouts' records on every process",
                                   "build 'u' layouts with LayoutOptions::scatter_unstructured = false"}});
  if (source->global_shape() != target->global_shape() || target->comm()->getSize() != nprocs)
    throw ValidationError({Problem{-1, -1, "size", "", "source and target describe the same global array",
                                   "the layouts' global shapes or communicators differ"}});

  std::vector<Peer> by_rank(nprocs);
  bool missing = false;  // an element the other layout does not hold (1-D 'u' index sets differ)
  const auto src_item = static_cast<std::ptrdiff_t>(source->itemsize());
  const auto tgt_item = static_cast<std::ptrdiff_t>(target->itemsize());
  owned_in_global_order(*source, target->global(), [&](std::ptrdiff_t offset, int to) {
    if (to < 0) return void(missing = true);
    append(by_rank[to].source, offset, src_item);
    ++by_rank[to].source_count;
  });
  owned_in_global_order(*target, source->global(), [&](std::ptrdiff_t offset, int from) {
    if (from < 0) return void(missing = true);
    append(by_rank[from].target, offset, tgt_item);
    ++by_rank[from].target_count;
  });
  if (!detail::all_true(!missing, *source->comm()))
    throw ValidationError({Problem{-1, 0, "indices", "", "source and target hold the same global indices",
                                   "an index of one layout is missing from the other (1-D 'u' index sets differ)"}});
  for (int p = 0; p < nprocs; ++p) {
    by_rank[p].rank = p;
    if (p == me) {
      self->self_ = std::move(by_rank[p]);
      self->local_count_ = self->self_.source_count;
    } else if (by_rank[p].source_count > 0 || by_rank[p].target_count > 0) {
      self->peers_.push_back(std::move(by_rank[p]));
    }
  }
  if (options.fill_target_padding) self->target_halo_ = HaloPlan::create(target);
  return self;
}

std::size_t RedistributionPlan::num_sent() const {
  std::size_t n = 0;
  for (const Peer& p : peers_) n += p.source_count;
  return n;
}

std::size_t RedistributionPlan::num_received() const {
  std::size_t n = 0;
  for (const Peer& p : peers_) n += p.target_count;
  return n;
}

std::size_t RedistributionPlan::num_runs() const {
  std::size_t n = self_.source.size() + self_.target.size();
  for (const Peer& p : peers_) n += p.source.size() + p.target.size();
  return n;
}

template <class Scalar>
void RedistributionPlan::move(const DistArray& from, const DistArray& to, bool forward) const {
  const TpetraLayout& from_layout = forward ? *source_ : *target_;
  const TpetraLayout& to_layout = forward ? *target_ : *source_;
  const char* src = reinterpret_cast<const char*>(detail::checked_data<const Scalar>(from_layout, from));
  char* dst = reinterpret_cast<char*>(detail::checked_data<Scalar>(to_layout, to));
  const auto runs_out = [&](const Peer& p) -> const std::vector<Run>& { return forward ? p.source : p.target; };
  const auto runs_in = [&](const Peer& p) -> const std::vector<Run>& { return forward ? p.target : p.source; };
  const auto count_out = [&](const Peer& p) { return forward ? p.source_count : p.target_count; };
  const auto count_in = [&](const Peer& p) { return forward ? p.target_count : p.source_count; };

  const MPI_Comm comm = from_layout.comm()->getSize() > 1 ? raw_comm(*from_layout.comm()) : MPI_COMM_SELF;
  std::size_t total_in = 0, total_out = 0;
  for (const Peer& p : peers_) total_in += count_in(p), total_out += count_out(p);
  std::vector<char> inbox(total_in * sizeof(Scalar)), outbox(total_out * sizeof(Scalar));
  std::vector<MPI_Request> requests;
  requests.reserve(2 * peers_.size());
  char* in = inbox.data();
  for (const Peer& p : peers_)
    if (count_in(p) > 0) {
      requests.emplace_back();
      MPI_Irecv(in, static_cast<int>(count_in(p) * sizeof(Scalar)), MPI_BYTE, p.rank, tag_, comm, &requests.back());
      in += count_in(p) * sizeof(Scalar);
    }
  char* out = outbox.data();
  for (const Peer& p : peers_)
    if (count_out(p) > 0) {
      char* next = pack<Scalar>(runs_out(p), src, out);
      requests.emplace_back();
      MPI_Isend(out, static_cast<int>(next - out), MPI_BYTE, p.rank, tag_, comm, &requests.back());
      out = next;
    }
  // What stays on this process moves while the messages travel.
  zip_copy<Scalar>(runs_out(self_), src, runs_in(self_), dst);
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  const char* received = inbox.data();
  for (const Peer& p : peers_)
    if (count_in(p) > 0) received = unpack<Scalar>(runs_in(p), dst, received);
  if (forward && target_halo_) target_halo_->update<Scalar>(to);
}

template <class Scalar>
void RedistributionPlan::apply(const DistArray& from, const DistArray& to) const {
  move<Scalar>(from, to, true);
}

template <class Scalar>
void RedistributionPlan::apply_reverse(const DistArray& from_target, const DistArray& to_source) const {
  move<Scalar>(from_target, to_source, false);
}

#define DAPETRA_INSTANTIATE_REDISTRIBUTION(S)                                              \
  template void RedistributionPlan::apply<S>(const DistArray&, const DistArray&) const;    \
  template void RedistributionPlan::apply_reverse<S>(const DistArray&, const DistArray&) const;

DAPETRA_INSTANTIATE_REDISTRIBUTION(double)
DAPETRA_INSTANTIATE_REDISTRIBUTION(int)
DAPETRA_INSTANTIATE_REDISTRIBUTION(long long)

}  // namespace dapetra::tpetra
