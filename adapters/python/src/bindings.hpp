// Internal: the parts of the dapetra Python module, each bound in its own file.
#pragma once

#include <pybind11/pybind11.h>

namespace dapetra::python {

namespace py = pybind11;

void bind_errors(py::module_& m);  // dapetra.ValidationError
void bind_plans(py::module_& m);   // Layout, HaloPlan, RedistributionPlan (the mpi layer)
void bind_tpetra(py::module_& m);  // Tpetra views and producers (when built with Tpetra)

}  // namespace dapetra::python
