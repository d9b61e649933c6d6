// The tests' serial reference for the finite-element pipeline: the same
// discretisation (examples/fem/element.hpp's P1 kernels) assembled and solved
// in one process with Eigen's sparse Cholesky, independent of Tpetra and
// Dapetra, against which test_fem.cpp checks the distributed matrix rows and
// solutions.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "mesh.hpp"

namespace fem {

// The solution at every node of `mesh`.
std::vector<double> solve_serial(const Mesh& mesh);

// Entries of the assembled global matrix row of node i, as (column, value).
std::vector<std::vector<std::pair<std::int64_t, double>>> serial_matrix_rows(const Mesh& mesh);

}  // namespace fem
