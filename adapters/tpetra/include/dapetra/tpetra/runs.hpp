// dapetra/tpetra/runs.hpp: the unit both communication plans are made of.
//
// A run is a stretch of equally spaced elements in a caller's buffer: a
// contiguous piece of a padded block (step = element size), a column of a
// halo, or a block-cyclic pattern (step = the distance between a process's
// elements). Halo and redistribution plans keep, per peer, the runs to pack
// into a message and the runs to unpack from one, so a plan's size follows
// the structure of the distributions, not the element count.
#pragma once

#include <cstddef>

namespace dapetra::tpetra {

struct StridedRun {
  std::ptrdiff_t offset;  // bytes into the buffer
  std::size_t count;      // elements
  std::ptrdiff_t step;    // bytes between consecutive elements
};

}  // namespace dapetra::tpetra
