// The compiled part of the `dapetra` Python package: its extension module dapetra._dapetra.
#include "bindings.hpp"
#include "convert.hpp"
#include "dapetra/error.hpp"
#include "dapetra/version.hpp"

namespace dapetra::python {

void bind_errors(py::module_& m) {
  // A ValueError whose .problems lists every problem found, on every process alike.
  static py::exception<ValidationError> error(m, "ValidationError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ValidationError& e) {
      py::object instance = py::reinterpret_borrow<py::object>(error.ptr())(e.what());
      instance.attr("problems") = problems_to_python(e.problems());
      PyErr_SetObject(error.ptr(), instance.ptr());
    }
  });
}

}  // namespace dapetra::python

PYBIND11_MODULE(_dapetra, m) {
  using namespace dapetra::python;
  m.doc() = "Dapetra: DAP distributed arrays shared with MPI plans and Tpetra without copies";
  m.attr("__version__") = DAPETRA_VERSION_STRING;
  py::module_::import("mpi4py.MPI");  // MPI is initialised (and finalised) by mpi4py
  bind_errors(m);
  bind_plans(m);
#ifdef DAPETRA_PYTHON_TPETRA
  bind_tpetra(m);
#endif
#ifdef DAPETRA_PYTHON_SOLVE
  bind_solve(m);
#endif
#ifdef DAPETRA_PYTHON_HDF5
  bind_checkpoint(m);
#endif
}
