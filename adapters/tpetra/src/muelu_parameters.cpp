#include "dapetra/tpetra/muelu_parameters.hpp"

namespace dapetra::tpetra {

Teuchos::ParameterList muelu_parameters_for_cg(int equations_per_node) {
  Teuchos::ParameterList p;
  p.set("verbosity", "none");
  p.set("multigrid algorithm", "sa");
  p.set("smoother: type", "CHEBYSHEV");
  if (equations_per_node > 1) {
    p.set("number of equations", equations_per_node);
    p.sublist("smoother: params").set("chebyshev: degree", 3);
  }
  p.set("coarse: max size", 100);
  p.set("coarse: type", "RELAXATION");
  Teuchos::ParameterList coarse;
  coarse.set("relaxation: type", "Symmetric Gauss-Seidel");
  coarse.set("relaxation: sweeps", 4);
  p.set("coarse: params", coarse);
  return p;
}

}  // namespace dapetra::tpetra
