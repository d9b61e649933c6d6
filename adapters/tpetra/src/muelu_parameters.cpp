#include "dapetra/tpetra/muelu_parameters.hpp"

namespace dapetra::tpetra {

Teuchos::ParameterList muelu_parameters_for_cg() {
  Teuchos::ParameterList p;
  p.set("verbosity", "none");
  p.set("multigrid algorithm", "sa");
  p.set("smoother: type", "CHEBYSHEV");
  p.set("coarse: max size", 100);
  p.set("coarse: type", "RELAXATION");
  Teuchos::ParameterList coarse;
  coarse.set("relaxation: type", "Symmetric Gauss-Seidel");
  coarse.set("relaxation: sweeps", 4);
  p.set("coarse: params", coarse);
  return p;
}

}  // namespace dapetra::tpetra
