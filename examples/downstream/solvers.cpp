// A downstream program that solves: a DAP array's owned part as Tpetra's
// vector, a 1-D Laplacian on its map, Belos CG + MueLu through
// dapetra/tpetra/solver.hpp, linked through the one target Dapetra::solvers
// (no Belos, Ifpack2 or MueLu found by this project). Built when the
// Dapetra found has Dapetra::solvers.
#include <Tpetra_Core.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <dapetra/tpetra/block_system.hpp>  // (compiles here too: it needs only what solver.hpp needs)
#include <dapetra/tpetra/compat.hpp>
#include <dapetra/tpetra/solver.hpp>
#include <dapetra/tpetra/tpetra.hpp>
#include <cmath>
#include <iostream>
#include <memory>
#include <vector>

int main(int argc, char** argv) {
  Tpetra::ScopeGuard scope(&argc, &argv);
  using namespace dapetra;
  const auto comm = Tpetra::getDefaultComm();
  const int P = comm->getSize(), r = comm->getRank();
  const global_index_t n = 200 * P;

  // The solution: a DAP array of this process's block, solved in place.
  const Dim dim = Dim::even_block(n, P, r);
  auto values = std::make_shared<std::vector<double>>(static_cast<std::size_t>(local_extent(dim)), 0.0);
  DistArray x;
  x.dim_data = {dim};
  x.buffer = view_buffer(values->data(), {local_extent(dim)}, values);
  const auto layout = tpetra::TpetraLayout::create(x, comm);
  const auto view = tpetra::owned_view<double>(*layout, x);
  const auto map = view->getMap();

  // -u'' = 0 on (0, 1), u(0) = 0, u(1) = 1, by second differences: u(g) = (g + 1) / (n + 1).
  auto a = Teuchos::rcp(new tpetra::CrsMatrix(map, 3));
  auto b = Teuchos::rcp(new tpetra::MultiVector<double>(map, 1));
  for (std::size_t l = 0; l < tpetra::compat::local_num_elements(*map); ++l) {
    const tpetra::GO g = map->getGlobalElement(static_cast<tpetra::LO>(l));
    std::vector<tpetra::GO> cols{g};
    std::vector<double> vals{2.0};
    if (g > 0) cols.push_back(g - 1), vals.push_back(-1.0);
    if (g + 1 < n) cols.push_back(g + 1), vals.push_back(-1.0);
    a->insertGlobalValues(g, Teuchos::ArrayView<const tpetra::GO>(cols), Teuchos::ArrayView<const double>(vals));
    if (g + 1 == n) b->replaceLocalValue(static_cast<tpetra::LO>(l), 0, 1.0);
  }
  a->fillComplete();
  tpetra::SolverOptions options;  // CG + MueLu
  const tpetra::SolveResult result = tpetra::solve(a, view, b, options);

  int bad = result.converged ? 0 : 1;
  for (global_index_t i = 0; i < local_extent(dim); ++i)
    bad += std::abs((*values)[static_cast<std::size_t>(i)] - static_cast<double>(global_index(dim, i) + 1) / static_cast<double>(n + 1)) > 1e-8;
  int total = 0;
  Teuchos::reduceAll(*comm, Teuchos::REDUCE_SUM, bad, Teuchos::outArg(total));
  if (r == 0) std::cout << "downstream_solvers: CG + MueLu, " << result.iterations << " iterations, " << total << " wrong\n";
  return total == 0 ? 0 : 1;
}
