// deal.II's own assembly loop into Tpetra (dapetra/dealii/tpetra_matrix.hpp),
// against deal.II's own parallel matrix: a Laplacian with Q2 elements on a
// p4est mesh refined adaptively (hanging nodes) with boundary values, each
// cell's matrix given to AffineConstraints::distribute_local_to_global once
// into a TpetraSparseMatrix and once into deal.II's
// TrilinosWrappers::SparseMatrix. Both, applied to the same vectors, agree
// to rounding at every owned row, at 1-4 processes; re-assembly into the
// same structure and a fault on one process are checked too.
#include <deal.II/base/index_set.h>
#include <deal.II/distributed/tria.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/sparsity_tools.h>
#include <deal.II/lac/trilinos_sparse_matrix.h>
#include <deal.II/numerics/vector_tools.h>
#include <gtest/gtest.h>

#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_MultiVector.hpp>
#include <cmath>
#include <set>

#include "../common/world.hpp"
#include "meshes.hpp"
#include "dapetra/dealii/compat.hpp"
#include "dapetra/dealii/tpetra_matrix.hpp"
#include "dapetra/dealii/vector.hpp"
#include "dapetra/tpetra/tpetra.hpp"

namespace dl = ::dealii;
using dapetra::dealii::TpetraSparseMatrix;

namespace {

// A 2-D unit square, refined twice everywhere and then at the cells near
// one corner, Q2, u = 0 on the boundary: the hanging-node and boundary
// constraints deal.II's tutorials have.
struct Problem {
  dl::parallel::distributed::Triangulation<2> mesh{MPI_COMM_WORLD};
  dl::FE_Q<2> fe{2};
  dl::DoFHandler<2> dofs;
  dl::IndexSet owned, relevant;
  dl::AffineConstraints<double> constraints;

  Problem() {
    dapetra::testing::refine_near_corner(mesh, 3, 0.4);
    dofs.reinit(mesh);
    dofs.distribute_dofs(fe);
    owned = dofs.locally_owned_dofs();
    relevant = dl::DoFTools::extract_locally_relevant_dofs(dofs);
    dapetra::dealii::compat::reinit_constraints(constraints, owned, relevant);
    dl::DoFTools::make_hanging_node_constraints(dofs, constraints);
    dl::VectorTools::interpolate_boundary_values(dofs, 0, dl::Functions::ZeroFunction<2>(), constraints);
    constraints.close();
  }

  // Each process's pattern over its cells: its owned rows and the rows owned elsewhere its cells touch.
  dl::DynamicSparsityPattern pattern() const {
    dl::DynamicSparsityPattern dsp(relevant);
    dl::DoFTools::make_sparsity_pattern(dofs, dsp, constraints, false);
    return dsp;
  }

  // The Laplacian's cells times `scale`, through deal.II's constraints, into `matrix` (and a right-hand side).
  template <class Matrix>
  void assemble(Matrix& matrix, double scale) const {
    dl::LinearAlgebra::distributed::Vector<double> rhs(owned, relevant, MPI_COMM_WORLD);
    const dl::QGauss<2> quadrature(3);
    dl::FEValues<2> values(fe, quadrature, dl::update_gradients | dl::update_values | dl::update_JxW_values);
    dl::FullMatrix<double> cell_matrix(fe.n_dofs_per_cell(), fe.n_dofs_per_cell());
    dl::Vector<double> cell_rhs(fe.n_dofs_per_cell());
    std::vector<dl::types::global_dof_index> indices(fe.n_dofs_per_cell());
    for (const auto& cell : dofs.active_cell_iterators()) {
      if (!cell->is_locally_owned()) continue;
      values.reinit(cell);
      cell_matrix = 0;
      cell_rhs = 0;
      for (unsigned q = 0; q < quadrature.size(); ++q)
        for (unsigned i = 0; i < fe.n_dofs_per_cell(); ++i) {
          for (unsigned j = 0; j < fe.n_dofs_per_cell(); ++j)
            cell_matrix(i, j) += scale * values.shape_grad(i, q) * values.shape_grad(j, q) * values.JxW(q);
          cell_rhs(i) += values.shape_value(i, q) * values.JxW(q);
        }
      cell->get_dof_indices(indices);
      constraints.distribute_local_to_global(cell_matrix, cell_rhs, indices, matrix, rhs);
    }
    matrix.compress(dl::VectorOperation::add);
  }
};

// y = A x on both matrices for x(g) = cos(g), compared at every owned row.
void expect_same_products(const Problem& p, const TpetraSparseMatrix& ours, const dl::TrilinosWrappers::SparseMatrix& theirs) {
  dl::LinearAlgebra::distributed::Vector<double> x(p.owned, MPI_COMM_WORLD), y_ours(x), y_theirs(x);
  for (const auto g : p.owned) x(g) = std::cos(static_cast<double>(g));
  theirs.vmult(y_theirs, x);
  const dapetra::DistArray xa = dapetra::dealii::vector_as_distarray(x), ya = dapetra::dealii::vector_as_distarray(y_ours);
  const auto layout = dapetra::tpetra::TpetraLayout::create(xa, Teuchos::rcp(new Teuchos::MpiComm<int>(MPI_COMM_WORLD)),
                                                            dapetra::tpetra::TpetraLayoutOptions{{}, dapetra::dealii::owners_of(x)});
  ours.tpetra_matrix()->apply(*dapetra::tpetra::owned_view<double>(*layout, xa), *dapetra::tpetra::owned_view<double>(*layout, ya));
  const double scale = theirs.linfty_norm() * x.linfty_norm();
  int rows = 0;
  for (const auto g : p.owned) {
    EXPECT_NEAR(y_ours(g), y_theirs(g), 1e-13 * scale) << "row " << g;
    ++rows;
  }
  EXPECT_EQ(rows, static_cast<int>(p.owned.n_elements()));
  EXPECT_EQ(ours.tpetra_matrix()->getGlobalNumRows(), p.dofs.n_dofs());
}

}  // namespace

TEST(DealiiTpetraMatrix, AssemblesAsDealiisOwnTrilinosMatrix) {
  const Problem p;
  const auto dsp = p.pattern();
  TpetraSparseMatrix ours(p.owned, dsp, MPI_COMM_WORLD);
  dl::DynamicSparsityPattern distributed = p.pattern();  // (a pattern that is not empty cannot be copied)
  dl::SparsityTools::distribute_sparsity_pattern(distributed, p.owned, MPI_COMM_WORLD, p.relevant);
  dl::TrilinosWrappers::SparseMatrix theirs;
  theirs.reinit(p.owned, p.owned, distributed, MPI_COMM_WORLD);
  p.assemble(ours, 1.0);
  p.assemble(theirs, 1.0);
  EXPECT_EQ(ours.tpetra_matrix()->getGlobalNumEntries(), static_cast<std::size_t>(theirs.n_nonzero_elements()));
  EXPECT_NEAR(ours.tpetra_matrix()->getFrobeniusNorm(), theirs.frobenius_norm(), 1e-12 * theirs.frobenius_norm());
  expect_same_products(p, ours, theirs);

  // Re-assembly into the same structure: other values, the same agreement.
  ours = 0;
  theirs = 0;
  p.assemble(ours, 2.5);
  p.assemble(theirs, 2.5);
  expect_same_products(p, ours, theirs);

  // Adding after compress() without zeroing goes on from the assembled
  // values: rows owned elsewhere must not be sent a second time.
  p.assemble(ours, 2.5);
  theirs = 0;
  p.assemble(theirs, 5.0);
  expect_same_products(p, ours, theirs);
}

// A dof index past the global size, or a column the pattern does not hold,
// on one process: compress() throws the same error on every process, naming
// it; the matrix then takes a sound assembly as before.
TEST(Faults, DealiiAssemblyOutsideTheMatrixFailsEveryRank) {
  const Problem p;
  const auto dsp = p.pattern();
  TpetraSparseMatrix ours(p.owned, dsp, MPI_COMM_WORLD);
  const auto [rank, size] = dapetra::testing::World();
  const auto first = p.owned.nth_index_in_set(0);
  dl::types::global_dof_index lacking = 0;  // a column the first owned row's pattern lacks
  while (lacking < p.dofs.n_dofs() && dsp.exists(first, lacking)) ++lacking;
  // The faults, written once: the spoiled process's (row, column), and the key named.
  const std::vector<std::tuple<std::string, dl::types::global_dof_index, dl::types::global_dof_index>> faults = {
      {"row", p.dofs.n_dofs(), first}, {"column", first, p.dofs.n_dofs() + 3}, {"column", first, lacking}};
  for (int bad = 0; bad < size; ++bad)
    for (const auto& [key, row, column] : faults) {
      SCOPED_TRACE(key + " (" + std::to_string(row) + ", " + std::to_string(column) + ") on rank " + std::to_string(bad));
      ours = 0;
      if (rank == bad) ours.add(row, column, 1.0);
      try {
        ours.compress(dl::VectorOperation::add);
        ADD_FAILURE() << "an entry outside the matrix or its pattern was accepted";
      } catch (const dapetra::ValidationError& e) {
        EXPECT_EQ(e.problems().at(0).rank, bad);
        EXPECT_EQ(e.problems().at(0).key, key);
      }
      ours.compress(dl::VectorOperation::add);  // nothing added since the fault: the matrix is zero
      EXPECT_EQ(ours.tpetra_matrix()->getFrobeniusNorm(), 0.0);
    }
  // Afterwards a sound assembly agrees with deal.II's.
  dl::DynamicSparsityPattern distributed = p.pattern();  // (a pattern that is not empty cannot be copied)
  dl::SparsityTools::distribute_sparsity_pattern(distributed, p.owned, MPI_COMM_WORLD, p.relevant);
  dl::TrilinosWrappers::SparseMatrix theirs;
  theirs.reinit(p.owned, p.owned, distributed, MPI_COMM_WORLD);
  ours = 0;
  p.assemble(ours, 1.0);
  p.assemble(theirs, 1.0);
  expect_same_products(p, ours, theirs);
}

// A structure wrong on one process (a pattern of another size; owned sets
// that leave a row to nobody) throws the same ValidationError on every
// process, naming it, and a sound matrix is built afterwards: nobody waits.
TEST(Faults, DealiiMatrixOfAnotherStructureFailsEveryRank) {
  const Problem p;
  const auto [rank, size] = dapetra::testing::World();
  const auto n = p.dofs.n_dofs();
  dl::IndexSet fewer(n);  // this process's rows but its last
  if (p.owned.n_elements() > 1) fewer.add_range(p.owned.nth_index_in_set(0), p.owned.nth_index_in_set(0) + p.owned.n_elements() - 1);
  const bool can_drop = dl::Utilities::MPI::min(static_cast<int>(p.owned.n_elements() > 1), MPI_COMM_WORLD) == 1;
  for (int bad = 0; bad < size; ++bad) {
    SCOPED_TRACE("rank " + std::to_string(bad));
    try {  // the pattern one row and column larger than the matrix
      const dl::DynamicSparsityPattern larger(n + 1, n + 1);
      TpetraSparseMatrix wrong(p.owned, rank == bad ? larger : p.pattern(), MPI_COMM_WORLD);
      ADD_FAILURE() << "a pattern of another size was accepted";
    } catch (const dapetra::ValidationError& e) {
      EXPECT_EQ(e.problems().at(0).rank, bad);
      EXPECT_EQ(e.problems().at(0).key, "pattern");
    }
    if (!can_drop) continue;
    try {  // a row nobody owns
      TpetraSparseMatrix wrong(rank == bad ? fewer : p.owned, p.pattern(), MPI_COMM_WORLD);
      ADD_FAILURE() << "owned sets that leave a row to nobody were accepted";
    } catch (const dapetra::ValidationError& e) {
      std::set<int> named;
      for (const auto& problem : e.problems()) {
        EXPECT_EQ(problem.key, "local_range");
        named.insert(problem.rank);
      }
      EXPECT_TRUE(named.count(bad)) << "the process is not named";
    }
  }
  dl::DynamicSparsityPattern distributed = p.pattern();
  dl::SparsityTools::distribute_sparsity_pattern(distributed, p.owned, MPI_COMM_WORLD, p.relevant);
  dl::TrilinosWrappers::SparseMatrix theirs;
  theirs.reinit(p.owned, p.owned, distributed, MPI_COMM_WORLD);
  TpetraSparseMatrix ours(p.owned, p.pattern(), MPI_COMM_WORLD);
  p.assemble(ours, 1.0);
  p.assemble(theirs, 1.0);
  expect_same_products(p, ours, theirs);
}
