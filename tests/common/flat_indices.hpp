// Test helper: the global C-order flat index of every element of one
// process's buffer, in local C order, computed from the records alone by the
// test oracle (spec_oracle.hpp), not by the library's index code.
#pragma once

#include "spec_oracle.hpp"

namespace dapetra::testing {

using oracle::global_flat_indices;

}  // namespace dapetra::testing
