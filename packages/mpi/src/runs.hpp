// Internal: the unit both communication plans are made of, and packing /
// unpacking it.
//
// A run is a stretch of equally spaced elements in a caller's buffer: a
// contiguous piece of a padded block (step = element size), a column of a
// halo, or a block-cyclic pattern (step = the distance between a process's
// elements). Halo and redistribution plans keep, per peer, the runs to pack
// into a message and the runs to unpack from one, so a plan's size follows
// the structure of the distributions, not the element count.
#pragma once

#include <cstddef>
#include <cstring>
#include <map>
#include <vector>

namespace dapetra::mpi::detail {

struct StridedRun {
  std::ptrdiff_t offset;  // bytes into the buffer
  std::size_t count;      // elements
  std::ptrdiff_t step;    // bytes between consecutive elements
};

// What a plan exchanges with one other process: runs of this process's
// buffer it sends from and receives into, in message order (for a halo plan:
// owned elements the peer needs, ghosts it fills; for a redistribution:
// source elements the peer takes, target elements it gives).
struct PlanPeer {
  int rank = 0;
  std::vector<StridedRun> send, recv;
  std::size_t send_count = 0, recv_count = 0;
};

// Appends one element at `offset` (`item` bytes), extending the last run when
// the element continues its stride.
inline void append_element(std::vector<StridedRun>& runs, std::ptrdiff_t offset, std::ptrdiff_t item) {
  if (!runs.empty()) {
    StridedRun& r = runs.back();
    if (r.count == 1 && offset != r.offset) {
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

// Appends `len` elements starting at `offset`, `step` bytes apart.
inline void append_elements(std::vector<StridedRun>& runs, std::ptrdiff_t offset, std::size_t len, std::ptrdiff_t step,
                            std::ptrdiff_t item) {
  if (len == 1) return append_element(runs, offset, item);
  if (!runs.empty()) {
    StridedRun& r = runs.back();
    if ((r.count == 1 || r.step == step) && offset == r.offset + static_cast<std::ptrdiff_t>(r.count) * step) {
      r.step = step;
      r.count += len;
      return;
    }
  }
  runs.push_back({offset, len, step});
}

// Runs in message order plus their element count.
struct RunList {
  std::vector<StridedRun> runs;
  std::size_t count = 0;    // elements
  std::ptrdiff_t item = 0;  // bytes per element
  void add(std::ptrdiff_t offset) {
    ++count;
    append_element(runs, offset, item);
  }
};

// A RunList per peer, kept only for the peers named (never one per process
// of the communicator). Consecutive elements mostly go to the same peer, so
// the last one looked up is kept at hand.
class RunsByPeer {
 public:
  explicit RunsByPeer(std::ptrdiff_t item) : item_(item) {}
  RunList& operator[](int peer) {
    if (last_ && last_peer_ == peer) return *last_;
    last_peer_ = peer;
    last_ = &by_peer_.try_emplace(peer, RunList{{}, 0, item_}).first->second;
    return *last_;
  }
  std::map<int, RunList>& peers() { return by_peer_; }

 private:
  std::ptrdiff_t item_;
  std::map<int, RunList> by_peer_;
  int last_peer_ = -1;
  RunList* last_ = nullptr;
};

// Copies `count` elements from `from_step` to `to_step` bytes apart: one
// memmove when both sides are packed (or there is one element) and the run
// is long, else one element at a time (inlined: a 1-D halo moves two
// elements, where a library call costs more than the copy). Element-wise
// copies go forward, so a source and target that coincide are safe; other
// overlaps are safe only for long packed runs (memmove).
template <class Scalar>
void copy_elements(const char* from, std::ptrdiff_t from_step, char* to, std::ptrdiff_t to_step, std::size_t count) {
  constexpr auto item = static_cast<std::ptrdiff_t>(sizeof(Scalar));
  const bool packed = count == 1 || (from_step == item && to_step == item);
  if (packed && count > 8) {  // a library call pays off; short halos copy inline below
    std::memmove(to, from, count * sizeof(Scalar));
    return;
  }
  if (packed) from_step = to_step = item;
  for (std::size_t i = 0; i < count; ++i, from += from_step, to += to_step) std::memcpy(to, from, sizeof(Scalar));
}

// Copies the runs' elements into a message, packed (pack_runs), or from one
// back into the buffer (unpack_runs); each returns the end of what it used.
// Message order: column 0 of each run, then column 1, ...; column j of a
// multi-column buffer lies `column_stride` bytes after column 0.
// Scattered indices make runs of one or two elements (append_element pairs
// any two): those are copied here, inline, where a call per run would cost
// more than its copy. (Plain loops, not for_each_run: the message cursor
// stays in a register.)
template <class Scalar>
char* pack_runs(const std::vector<StridedRun>& runs, const char* base, std::size_t ncols, std::ptrdiff_t column_stride,
                char* out) {
  constexpr std::size_t item = sizeof(Scalar);
  for (std::size_t j = 0; j < ncols; ++j, base += column_stride)
    for (const StridedRun& r : runs) {
      if (r.count <= 2) {
        std::memcpy(out, base + r.offset, item);
        if (r.count == 2) std::memcpy(out + item, base + r.offset + r.step, item);
      } else {
        copy_elements<Scalar>(base + r.offset, r.step, out, item, r.count);
      }
      out += r.count * item;
    }
  return out;
}

template <class Scalar>
const char* unpack_runs(const std::vector<StridedRun>& runs, char* base, std::size_t ncols, std::ptrdiff_t column_stride,
                        const char* in) {
  constexpr std::size_t item = sizeof(Scalar);
  for (std::size_t j = 0; j < ncols; ++j, base += column_stride)
    for (const StridedRun& r : runs) {
      if (r.count <= 2) {
        std::memcpy(base + r.offset, in, item);
        if (r.count == 2) std::memcpy(base + r.offset + r.step, in + item, item);
      } else {
        copy_elements<Scalar>(in, item, base + r.offset, r.step, r.count);
      }
      in += r.count * item;
    }
  return in;
}

}  // namespace dapetra::mpi::detail
