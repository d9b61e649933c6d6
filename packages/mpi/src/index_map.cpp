#include "dapetra/mpi/index_map.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <unordered_map>

#include "collectives.hpp"
#include "dapetra/mpi/adapter_access.hpp"
#include "dapetra/mpi/agree.hpp"
#include "dapetra/dim_math.hpp"
#include "layout_access.hpp"

namespace dapetra::mpi {

// Builds an IndexMap in named steps: each axis on its own (global indices
// and owners' grid coordinates per position), then the elements, then the
// one exchange that tells owners who holds their elements' copies.
struct IndexMapBuilder {
  IndexMap& self;
  const DistributedLayout& dl;
  const std::vector<Dim>& dims;
  const int ndim;
  const std::vector<global_index_t> shape;                   // this buffer's, per axis
  std::vector<std::vector<global_index_t>> along_global;     // per axis and position: global index along it
  std::vector<std::vector<int>> along_owner;                 // ... and the owner's grid coordinate along it

  IndexMapBuilder(IndexMap& s, const DistributedLayout& d)
      : self(s), dl(d), dims(d.dim_data()), ndim(static_cast<int>(d.dim_data().size())),
        shape(local_shape_of(d.dim_data())) {}

  void axes();
  void elements();
  void lookup_and_range();
  void neighbours();
};

// Along each axis: where owned here, this process's coordinate; along the
// scattered 'u' axis, the owner the layout settled (it is then the only
// distributed axis, so its rank's coordinate); else the closed-form owner of
// the global index along that axis.
void IndexMapBuilder::axes() {
  const auto& coords = detail::LayoutAccess::coords(dl);
  along_global.resize(static_cast<std::size_t>(ndim));
  along_owner.resize(static_cast<std::size_t>(ndim));
  for (int a = 0; a < ndim; ++a) {
    const auto n = static_cast<std::size_t>(shape[a]);
    auto& g = along_global[a];
    auto& owner = along_owner[a];
    g.resize(n);
    owner.resize(n);
    if (n > 0) global_indices<global_index_t>(dims[a], g.data());
    for (std::size_t i = 0; i < n; ++i) {
      const auto p = static_cast<global_index_t>(i);
      if (dl.is_owned(a, p))
        owner[i] = coords[a];
      else if (a == detail::LayoutAccess::scattered_axis(dl))
        owner[i] = dl.grid().coord_of(detail::LayoutAccess::scattered(dl).owner_of(p, dl.rank()), a);
      else
        owner[i] = detail::LayoutAccess::global(dl).axis(a).owner(g[i]);
    }
  }
}

// Every element in C order over the buffer: its global flat index (C order
// over the global shape; a 1-D 'u' array's own index) and its owner's rank.
void IndexMapBuilder::elements() {
  const auto& global_shape = dl.global_shape();
  const bool own_indices = ndim == 1 && dims[0].dist_type == DistType::unstructured;
  std::vector<global_index_t> stride(static_cast<std::size_t>(ndim), 1);
  std::vector<int> grid_stride(static_cast<std::size_t>(ndim), 1);
  self.global_size_ = 1;
  for (int a = ndim - 1; a >= 0; --a) {
    stride[a] = own_indices ? 1 : self.global_size_;
    self.global_size_ *= global_shape[a];
    if (a + 1 < ndim) grid_stride[a] = grid_stride[a + 1] * dl.grid().shape()[a + 1];
  }
  global_index_t count = 1;
  for (auto s : shape) count *= s;
  if (count > std::numeric_limits<local_index_t>::max())
    throw std::length_error("dapetra::mpi::IndexMap: more elements than a local index counts");
  self.global_.reserve(static_cast<std::size_t>(count));
  self.owner_.reserve(static_cast<std::size_t>(count));
  std::vector<std::size_t> at(static_cast<std::size_t>(ndim), 0);
  for (global_index_t e = 0; e < count; ++e) {
    global_index_t g = 0;
    int owner = 0;
    for (int a = 0; a < ndim; ++a) {
      g += along_global[a][at[a]] * stride[a];
      owner += along_owner[a][at[a]] * grid_stride[a];
    }
    self.global_.push_back(g);
    self.owner_.push_back(owner);
    self.num_owned_ += owner == dl.rank();
    for (int a = ndim - 1; a >= 0 && ++at[a] == static_cast<std::size_t>(shape[a]); --a) at[a] = 0;
  }
}

void IndexMapBuilder::lookup_and_range() {
  auto& sorted = self.by_global_;
  sorted.reserve(self.global_.size());
  global_index_t lo = std::numeric_limits<global_index_t>::max(), hi = std::numeric_limits<global_index_t>::min();
  for (std::size_t i = 0; i < self.global_.size(); ++i) {
    sorted.emplace_back(self.global_[i], static_cast<local_index_t>(i));
    if (self.owner_[i] == dl.rank()) {
      lo = std::min(lo, self.global_[i]);
      hi = std::max(hi, self.global_[i]);
    }
  }
  std::sort(sorted.begin(), sorted.end());
  // A process owns each of its owned global indices once, so count == span means a range.
  if (self.num_owned_ == 0)
    self.owned_range_ = std::make_pair(global_index_t{0}, global_index_t{0});
  else if (hi - lo + 1 == self.num_owned_)
    self.owned_range_ = std::make_pair(lo, hi + 1);
}

// Each ghost's global index goes to its owner (one sparse exchange), which
// records the sender as a holder of that element's copy.
void IndexMapBuilder::neighbours() {
  const int me = dl.rank();
  for (int r : self.owner_)
    if (r != me) self.src_.push_back(r);
  std::sort(self.src_.begin(), self.src_.end());
  self.src_.erase(std::unique(self.src_.begin(), self.src_.end()), self.src_.end());
  self.sharer_begin_.assign(self.global_.size() + 1, 0);
  if (dl.every_element_owned()) return;  // alike on every process: no exchange
  detail::Outbox to;
  for (std::size_t i = 0; i < self.global_.size(); ++i)
    if (self.owner_[i] != me) to[self.owner_[i]].push_back(self.global_[i]);
  const detail::Inbox in = detail::exchange_words(to, dl.comm());
  std::vector<std::pair<local_index_t, int>> copies;  // (owned element, holder)
  copies.reserve(in.words.size());
  for (std::size_t k = 0; k < in.count(); ++k)
    for (std::size_t j = 0; j < in.size(k); ++j) {
      const int p = in.sources[k];
      const local_index_t i = self.local_index(in.of(k)[j]);
      if (i < 0 || !self.is_owned(i))
        throw std::logic_error("dapetra::mpi::IndexMap: rank " + std::to_string(p) + " names index " +
                               std::to_string(in.of(k)[j]) + " as owned by rank " + std::to_string(me) +
                               ", which does not own it");
      copies.emplace_back(i, p);
    }
  std::sort(copies.begin(), copies.end());
  copies.erase(std::unique(copies.begin(), copies.end()), copies.end());
  for (const auto& [i, p] : copies) {
    ++self.sharer_begin_[static_cast<std::size_t>(i) + 1];
    self.sharer_ranks_.push_back(p);
    self.dest_.push_back(p);
  }
  for (std::size_t i = 1; i < self.sharer_begin_.size(); ++i) self.sharer_begin_[i] += self.sharer_begin_[i - 1];
  std::sort(self.dest_.begin(), self.dest_.end());
  self.dest_.erase(std::unique(self.dest_.begin(), self.dest_.end()), self.dest_.end());
}

std::shared_ptr<const IndexMap> IndexMap::create(std::shared_ptr<const DistributedLayout> layout) {
  adapter::agree_on_layouts({layout.get()}, "IndexMap::create");
  std::shared_ptr<IndexMap> self(new IndexMap());
  self->layout_ = std::move(layout);
  IndexMapBuilder b(*self, *self->layout_);
  b.axes();
  b.elements();
  b.lookup_and_range();
  b.neighbours();
  return self;
}

local_index_t IndexMap::local_index(global_index_t g) const {
  const auto it = std::lower_bound(by_global_.begin(), by_global_.end(), std::make_pair(g, local_index_t{-1}));
  return it != by_global_.end() && it->first == g ? it->second : -1;
}

namespace {

using Words = detail::Outbox;

std::vector<Problem> check_keep(const IndexMap& parent, const std::vector<local_index_t>& keep) {
  for (std::size_t k = 0; k < keep.size(); ++k)
    if (keep[k] < 0 || keep[k] >= parent.local_size() || (k > 0 && keep[k] <= keep[k - 1]))
      return {Problem::of(parent.layout().rank(), "keep", std::to_string(keep[k]),
                          "kept elements are local indices of the parent, ascending",
                          "entry " + std::to_string(k) + " of " + std::to_string(keep.size()))};
  return {};
}

// Sends `ask[p]` to every p named and returns, per p, what p answered about
// each word (answer(p, word) computed where the word arrived). Collective
// (two sparse exchanges).
template <class Answer>
Words ask_and_answer(const Words& ask, Answer&& answer, MPI_Comm comm) {
  const detail::Inbox in = detail::exchange_words(ask, comm);
  Words replies;
  for (std::size_t k = 0; k < in.count(); ++k)
    for (std::size_t j = 0; j < in.size(k); ++j) replies[in.sources[k]].push_back(answer(in.sources[k], in.of(k)[j]));
  const detail::Inbox back = detail::exchange_words(replies, comm);
  Words out;
  for (std::size_t k = 0; k < back.count(); ++k) out[back.sources[k]].assign(back.of(k), back.of(k) + back.size(k));
  return out;
}

// The kept elements' new owners: an owner keeping its element owns it
// still; otherwise the lowest rank that keeps it (every keeper asks the old
// owner, which sees them all). Collective.
std::vector<int> new_owners(const IndexMap& parent, const std::vector<local_index_t>& keep, MPI_Comm comm) {
  const int me = parent.layout().rank();
  const auto& G = parent.global_indices();
  std::vector<int> owner(keep.size(), me);
  Words ask;
  std::map<int, std::vector<std::size_t>> about;
  std::vector<char> kept(static_cast<std::size_t>(parent.local_size()), 0);
  for (std::size_t k = 0; k < keep.size(); ++k) {
    kept[static_cast<std::size_t>(keep[k])] = 1;
    const int o = parent.owners()[static_cast<std::size_t>(keep[k])];
    if (o == me) continue;
    ask[o].push_back(G[static_cast<std::size_t>(keep[k])]);
    about[o].push_back(k);
  }
  // Answers come per asker in rank order, so the first asker of an index is its lowest.
  std::unordered_map<global_index_t, int> first_asker;
  const auto replies = ask_and_answer(ask, [&](int p, std::int64_t g) -> std::int64_t {
    if (kept[static_cast<std::size_t>(parent.local_index(g))]) return me;
    return first_asker.emplace(g, p).first->second;
  }, comm);
  for (const auto& [p, words] : replies)
    for (std::size_t j = 0; j < words.size(); ++j) owner[about[p][j]] = static_cast<int>(words[j]);
  return owner;
}

}  // namespace

SubIndexMap create_sub_index_map(const IndexMap& parent, const std::vector<local_index_t>& keep) {
  const DistributedLayout& dl = parent.layout();
  const MPI_Comm comm = dl.comm();
  const int P = dl.nprocs(), me = dl.rank();
  adapter::agree_on_layouts({&dl}, "create_sub_index_map");
  agree(check_keep(parent, keep), comm);
  const auto& G = parent.global_indices();
  const std::vector<int> owner = new_owners(parent, keep, comm);

  // Numbers: each owner's kept elements consecutively, owners in rank order
  // (one prefix sum: what the processes before this one keep).
  long long mine = std::count(owner.begin(), owner.end(), me), before = 0;
  MPI_Exscan(&mine, &before, 1, MPI_LONG_LONG, MPI_SUM, comm);
  if (me == 0) before = 0;  // (MPI leaves rank 0's undefined)
  std::vector<global_index_t> number(keep.size(), -1);
  std::vector<std::pair<global_index_t, global_index_t>> numbered;  // (parent global, new) of mine, sorted
  for (std::size_t k = 0; k < keep.size(); ++k)
    if (owner[k] == me) {
      number[k] = before++;
      numbered.emplace_back(G[static_cast<std::size_t>(keep[k])], number[k]);
    }
  std::sort(numbered.begin(), numbered.end());

  // The others' numbers, from their new owners.
  Words ask;
  std::map<int, std::vector<std::size_t>> about;
  for (std::size_t k = 0; k < keep.size(); ++k)
    if (owner[k] != me) {
      ask[owner[k]].push_back(G[static_cast<std::size_t>(keep[k])]);
      about[owner[k]].push_back(k);
    }
  const auto replies = ask_and_answer(ask, [&](int p, std::int64_t g) -> std::int64_t {
    const auto it = std::lower_bound(numbered.begin(), numbered.end(), std::make_pair(g, global_index_t{-1}));
    if (it == numbered.end() || it->first != g)
      throw std::logic_error("dapetra::mpi::create_sub_index_map: rank " + std::to_string(p) + " asks rank " +
                             std::to_string(me) + " for index " + std::to_string(g) + ", which it does not own");
    return it->second;
  }, comm);
  for (const auto& [p, words] : replies)
    for (std::size_t j = 0; j < words.size(); ++j) number[about[p][j]] = words[j];

  // The new layout: every holder names each kept element's owner (no
  // process needs the others' ranges); its size is the kept elements' count.
  const DistributedLayoutOptions options(Ownership::from_held_owners(owner));
  const Dim u = Dim::unstructured(detail::sum_all(mine, comm), P, me, number, false);
  SubIndexMap out;
  out.map = IndexMap::create(DistributedLayout::create(std::vector<Dim>{u}, comm, options));
  out.parent_local = keep;
  return out;
}

}  // namespace dapetra::mpi
