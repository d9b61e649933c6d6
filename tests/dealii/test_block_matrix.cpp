// The block form of dapetra::dealii::TpetraSparseMatrix against deal.II's
// own Epetra block matrix: a Stokes system (Q2 velocity, Q1 pressure,
// numbered block-wise as step-55 numbers it) on a p4est mesh refined near
// one corner (hanging nodes) with boundary values, each cell's matrix given
// to AffineConstraints::distribute_local_to_global once into each. Every
// block K_ij x_j agrees to rounding at every owned row, at 1-4 processes;
// the block vector copies go there and back; structures that do not fit on
// one process fail on every process.
#include <deal.II/base/index_set.h>
#include <deal.II/distributed/tria.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_renumbering.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/block_sparsity_pattern.h>
#include <deal.II/lac/sparsity_tools.h>
#include <deal.II/lac/trilinos_block_sparse_matrix.h>
#include <deal.II/lac/trilinos_parallel_block_vector.h>
#include <deal.II/numerics/vector_tools.h>
#include <gtest/gtest.h>

#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_MultiVector.hpp>
#include <cmath>

#include "../common/world.hpp"
#include "meshes.hpp"
#include "dapetra/dealii/compat.hpp"
#include "dapetra/dealii/tpetra_matrix.hpp"
#include "dapetra/dealii/vector.hpp"

namespace dl = ::dealii;
using dapetra::dealii::BlockVector;
using dapetra::dealii::TpetraSparseMatrix;

namespace {

// Taylor-Hood on the unit square, refined twice everywhere and then near
// one corner, the velocity zero on the boundary.
struct Stokes {
  dl::parallel::distributed::Triangulation<2> mesh{MPI_COMM_WORLD};
  dl::FESystem<2> fe{dl::FE_Q<2>(2), 2, dl::FE_Q<2>(1), 1};
  dl::DoFHandler<2> dofs;
  std::vector<dl::IndexSet> owned, relevant;
  dl::IndexSet owned_all, relevant_all;
  dl::AffineConstraints<double> constraints;

  Stokes() {
    dapetra::testing::refine_near_corner(mesh, 2, 0.3);
    dofs.reinit(mesh);
    dofs.distribute_dofs(fe);
    const std::vector<unsigned> block_of_component = {0, 0, 1};
    dl::DoFRenumbering::component_wise(dofs, block_of_component);
    const auto n_u = dl::DoFTools::count_dofs_per_fe_block(dofs, block_of_component)[0];
    owned_all = dofs.locally_owned_dofs();
    relevant_all = dl::DoFTools::extract_locally_relevant_dofs(dofs);
    owned = {owned_all.get_view(0, n_u), owned_all.get_view(n_u, dofs.n_dofs())};
    relevant = {relevant_all.get_view(0, n_u), relevant_all.get_view(n_u, dofs.n_dofs())};
    dapetra::dealii::compat::reinit_constraints(constraints, owned_all, relevant_all);
    dl::DoFTools::make_hanging_node_constraints(dofs, constraints);
    dl::VectorTools::interpolate_boundary_values(dofs, 0, dl::Functions::ZeroFunction<2>(3), constraints,
                                                 fe.component_mask(dl::FEValuesExtractors::Vector(0)));
    constraints.close();
  }

  dl::BlockDynamicSparsityPattern pattern() const {
    dl::BlockDynamicSparsityPattern dsp(relevant);
    dl::DoFTools::make_sparsity_pattern(dofs, dsp, constraints, false);
    return dsp;
  }

  // [[A, B^T], [B, M]] (every coupling present, so that every block is
  // tried) times `scale`, into `matrix`, and a right-hand side into `rhs`.
  template <class Matrix, class Rhs>
  void assemble(Matrix& matrix, Rhs& rhs, double scale) const {
    matrix = 0;
    rhs = 0;
    const dl::QGauss<2> quadrature(3);
    dl::FEValues<2> values(fe, quadrature, dl::update_gradients | dl::update_values | dl::update_JxW_values);
    const unsigned n = fe.n_dofs_per_cell();
    dl::FullMatrix<double> cell_matrix(n, n);
    dl::Vector<double> cell_rhs(n);
    std::vector<dl::types::global_dof_index> indices(n);
    const dl::FEValuesExtractors::Vector u(0);
    const dl::FEValuesExtractors::Scalar p(2);
    for (const auto& cell : dofs.active_cell_iterators()) {
      if (!cell->is_locally_owned()) continue;
      values.reinit(cell);
      cell_matrix = 0;
      cell_rhs = 0;
      for (unsigned q = 0; q < quadrature.size(); ++q)
        for (unsigned i = 0; i < n; ++i) {
          for (unsigned j = 0; j < n; ++j)
            cell_matrix(i, j) += scale *
                                 (dl::scalar_product(values[u].gradient(i, q), values[u].gradient(j, q)) -
                                  values[u].divergence(i, q) * values[p].value(j, q) -
                                  values[p].value(i, q) * values[u].divergence(j, q) +
                                  values[p].value(i, q) * values[p].value(j, q)) *
                                 values.JxW(q);
          cell_rhs(i) += (values[u].value(i, q)[0] + values[p].value(i, q)) * values.JxW(q);
        }
      cell->get_dof_indices(indices);
      constraints.distribute_local_to_global(cell_matrix, cell_rhs, indices, matrix, rhs);
    }
    matrix.compress(dl::VectorOperation::add);
    rhs.compress(dl::VectorOperation::add);
  }
};

// K_ij x_j on both matrices, for x_j(g) = cos(g + 7 j), compared at every
// owned row of block i: each block on its own.
void expect_same_blocks(const Stokes& s, const TpetraSparseMatrix& ours, const dl::TrilinosWrappers::BlockSparseMatrix& theirs) {
  const auto rows = ours.tpetra_matrix()->getRowMap();
  for (unsigned j = 0; j < 2; ++j) {
    BlockVector x(s.owned, MPI_COMM_WORLD), y(s.owned, MPI_COMM_WORLD);
    for (const auto g : s.owned[j]) x.block(j)(g) = std::cos(static_cast<double>(g + 7 * j));
    dapetra::tpetra::MultiVector<double> tx(rows, 1), ty(rows, 1);
    dapetra::dealii::copy_block_vector_to_tpetra(x, tx);
    ours.tpetra_matrix()->apply(tx, ty);
    dapetra::dealii::copy_tpetra_to_block_vector(ty, y);
    for (unsigned i = 0; i < 2; ++i) {
      dl::TrilinosWrappers::MPI::Vector xj(s.owned[j], MPI_COMM_WORLD), yi(s.owned[i], MPI_COMM_WORLD);
      for (const auto g : s.owned[j]) xj(g) = x.block(j)(g);
      xj.compress(dl::VectorOperation::insert);
      theirs.block(i, j).vmult(yi, xj);
      const double scale = std::max(theirs.block(i, j).linfty_norm(), 1.0);
      for (const auto g : s.owned[i]) EXPECT_NEAR(y.block(i)(g), yi(g), 1e-13 * scale) << "block (" << i << ", " << j << "), row " << g;
    }
  }
  EXPECT_EQ(ours.tpetra_matrix()->getGlobalNumRows(), s.dofs.n_dofs());
  EXPECT_EQ(ours.tpetra_matrix()->getGlobalNumEntries(), static_cast<std::size_t>(theirs.n_nonzero_elements()));
}

}  // namespace

TEST(DealiiBlockMatrix, AssemblesAsDealiisOwnEpetraBlockMatrixBlockByBlock) {
  const Stokes s;
  TpetraSparseMatrix ours(s.owned, s.pattern(), MPI_COMM_WORLD);
  EXPECT_EQ(ours.owned_rows_per_block(), (std::vector<std::size_t>{s.owned[0].n_elements(), s.owned[1].n_elements()}));
  dl::BlockDynamicSparsityPattern distributed = s.pattern();
  dl::SparsityTools::distribute_sparsity_pattern(distributed, s.owned_all, MPI_COMM_WORLD, s.relevant_all);
  dl::TrilinosWrappers::BlockSparseMatrix theirs;
  theirs.reinit(s.owned, distributed, MPI_COMM_WORLD);
  BlockVector rhs_ours(s.owned, s.relevant, MPI_COMM_WORLD);
  dl::TrilinosWrappers::MPI::BlockVector rhs_theirs(s.owned, MPI_COMM_WORLD);
  for (const double scale : {1.0, 2.5}) {  // and re-assembly into the same structure
    s.assemble(ours, rhs_ours, scale);
    s.assemble(theirs, rhs_theirs, scale);
    expect_same_blocks(s, ours, theirs);
    for (unsigned b = 0; b < 2; ++b)
      for (const auto g : s.owned[b]) EXPECT_NEAR(rhs_ours.block(b)(g), rhs_theirs.block(b)(g), 1e-14) << "rhs " << b << ", " << g;
  }
}

// The copies between a block vector and a Tpetra vector go there and back,
// owned entries block after block; another length is refused.
TEST(DealiiBlockMatrix, BlockVectorCopiesGoThereAndBack) {
  const Stokes s;
  TpetraSparseMatrix ours(s.owned, s.pattern(), MPI_COMM_WORLD);
  ours.compress(dl::VectorOperation::add);  // (its row map: the owned rows, once assembled)
  BlockVector v(s.owned, MPI_COMM_WORLD), back(s.owned, MPI_COMM_WORLD);
  for (unsigned b = 0; b < 2; ++b)
    for (const auto g : s.owned[b]) v.block(b)(g) = 1000.0 * b + static_cast<double>(g);
  dapetra::tpetra::MultiVector<double> x(ours.tpetra_matrix()->getRowMap(), 1);
  dapetra::dealii::copy_block_vector_to_tpetra(v, x);
  const auto host = x.getLocalViewHost(Tpetra::Access::ReadOnly);
  ASSERT_EQ(host.extent(0), s.owned[0].n_elements() + s.owned[1].n_elements());
  if (s.owned[1].n_elements() > 0) {
    EXPECT_EQ(host(s.owned[0].n_elements(), 0), 1000.0 + static_cast<double>(s.owned[1].nth_index_in_set(0)));
  }
  dapetra::dealii::copy_tpetra_to_block_vector(x, back);
  for (unsigned b = 0; b < 2; ++b)
    for (const auto g : s.owned[b]) EXPECT_EQ(back.block(b)(g), v.block(b)(g));
  BlockVector other(std::vector<dl::IndexSet>{s.owned[0]}, MPI_COMM_WORLD);
  EXPECT_THROW(dapetra::dealii::copy_block_vector_to_tpetra(other, x), std::invalid_argument);
}

// Blocks that do not fit on one process (another number of blocks, or a
// block's owned set of another size than the pattern's block) throw the
// same ValidationError on every process, naming it; nobody waits, and a
// sound matrix is built afterwards.
TEST(Faults, DealiiBlockMatrixOfBlocksThatDoNotFitFailsEveryRank) {
  const Stokes s;
  const auto [rank, size] = dapetra::testing::World();
  for (int bad = 0; bad < size; ++bad)
    for (const bool another_count : {true, false}) {
      SCOPED_TRACE(std::string(another_count ? "a third block" : "a larger pressure set") + " on rank " + std::to_string(bad));
      std::vector<dl::IndexSet> owned = s.owned;
      if (rank == bad && another_count) owned.push_back(dl::IndexSet(0));
      if (rank == bad && !another_count) {
        dl::IndexSet larger(s.owned[1].size() + 1);
        larger.add_indices(s.owned[1]);
        owned[1] = larger;
      }
      try {
        TpetraSparseMatrix m(owned, s.pattern(), MPI_COMM_WORLD);
        ADD_FAILURE() << "blocks that do not fit were accepted";
      } catch (const dapetra::ValidationError& e) {
        EXPECT_EQ(e.problems().at(0).rank, bad) << e.what();
        EXPECT_EQ(e.problems().at(0).key, "blocks") << e.what();
      }
    }
  TpetraSparseMatrix sound(s.owned, s.pattern(), MPI_COMM_WORLD);
  sound.compress(dl::VectorOperation::add);
  EXPECT_EQ(sound.tpetra_matrix()->getGlobalNumRows(), s.dofs.n_dofs());
}
