// Internal: the parts of the dapetra Python module, each bound in its own file.
#pragma once

#include <pybind11/pybind11.h>

namespace dapetra::python {

namespace py = pybind11;

void bind_errors(py::module_& m);  // dapetra.ValidationError
void bind_plans(py::module_& m);   // Layout, HaloPlan, RedistributionPlan (the mpi layer)
void bind_tpetra(py::module_& m);  // Tpetra views and producers (when built with Tpetra)
void bind_solve(py::module_& m);   // CrsMatrix and Belos solves (when Belos and Ifpack2 are found)
void bind_checkpoint(py::module_& m);  // save and load in parallel HDF5 (when built with Dapetra::hdf5)

}  // namespace dapetra::python
