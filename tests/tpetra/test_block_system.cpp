// Saddle-point systems through FieldSplit and BlockPreconditioner
// (dapetra/tpetra/block_system.hpp): Stokes on a staggered (MAC) grid, its
// velocity and pressure unknowns interleaved cell by cell in one matrix, as
// a code that numbers them together hands them over. Checked against a
// serial dense solve of the same system, and for iterations that stay flat
// as the grid is refined.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Teuchos_CommHelpers.hpp>
#include <algorithm>
#include <array>
#include <cstdio>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "dapetra/tpetra/block_system.hpp"
#include "tpetra_test_util.hpp"

using namespace dapetra;
using namespace dapetra::tpetra;
using dapetra::testing::world;

namespace {

// Stokes on the unit square, n x n cells of width h, every wall no-slip:
//   -lap u + grad p = f,  -div u - eps p = 0,
// u on the interior vertical faces, v on the interior horizontal faces, p in
// the cells. Every row is scaled by h^2, so the matrix is symmetric,
// A ~ 5-point Laplacians, B ~ h times differences, and the Schur complement
// B A^-1 B^T + eps h^2 I ~ h^2 I: the block the preconditioner is given is
// h^2 I, the MAC pressure mass matrix. eps keeps the constant pressure
// determined.
struct Mac {
  int n;
  double eps = 1e-3;
  // Process q owns the cells of rows [row_begin(q), row_begin(q + 1)).
  int P;
  int row_begin(int q) const { return static_cast<int>(static_cast<long>(n) * q / P); }

  enum Kind { u_face = 0, v_face = 1, cell = 2 };
  // Every unknown's global number: cell row after cell row, in each cell
  // its u face (left, i >= 1), its v face (below, j >= 1), then p.
  std::map<std::array<int, 3>, GO> number;
  std::vector<GO> first_of;  // each process's first number, and the total
  std::vector<std::array<int, 3>> unknowns;  // by number

  // in_blocks: each process's velocity unknowns first, then its pressures
  // (DOLFINx's blocked assembly, deal.II's block numbering).
  Mac(int cells, int processes, bool in_blocks = false) : n(cells), P(processes) {
    for (int q = 0; q < P; ++q) {
      first_of.push_back(static_cast<GO>(unknowns.size()));
      for (const int pass : {0, 1}) {
        if (pass == 1 && !in_blocks) break;
        for (int j = row_begin(q); j < row_begin(q + 1); ++j)
          for (int i = 0; i < n; ++i) {
            const bool velocity = !in_blocks || pass == 0, pressure = !in_blocks || pass == 1;
            if (velocity && i >= 1) add({u_face, i, j});
            if (velocity && j >= 1) add({v_face, i, j});
            if (pressure) add({cell, i, j});
          }
      }
    }
    first_of.push_back(static_cast<GO>(unknowns.size()));
  }
  void add(std::array<int, 3> k) {
    number[k] = static_cast<GO>(unknowns.size());
    unknowns.push_back(k);
  }
  GO size() const { return first_of.back(); }
  // The number of unknown k, or -1 for a wall's (zero) velocity.
  GO at(int kind, int i, int j) const {
    const auto it = number.find({kind, i, j});
    return it == number.end() ? -1 : it->second;
  }

  // Row g's entries (global columns); the right-hand side's value.
  std::map<GO, double> row(GO g, bool preconditioner) const {
    const auto [kind, i, j] = unknowns[static_cast<std::size_t>(g)];
    const double h = 1.0 / n;
    std::map<GO, double> r;
    const auto put = [&](GO c, double v) {
      if (c >= 0) r[c] += v;
    };
    if (kind == cell) {  // h^2 (-div u - eps p); the preconditioner: h^2 p
      if (preconditioner) {
        put(g, h * h);
        return r;
      }
      put(at(u_face, i + 1, j), -h), put(at(u_face, i, j), h);
      put(at(v_face, i, j + 1), -h), put(at(v_face, i, j), h);
      put(g, -eps * h * h);
      return r;
    }
    put(g, 4.0);  // h^2 (-lap): 4 on the diagonal, -1 for each neighbour (a wall's is zero)
    for (const auto [di, dj] : {std::array<int, 2>{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) put(at(kind, i + di, j + dj), -1.0);
    if (preconditioner) return r;
    if (kind == u_face)  // h grad p: the cells either side of the face
      put(at(cell, i, j), h), put(at(cell, i - 1, j), -h);
    else
      put(at(cell, i, j), h), put(at(cell, i, j - 1), -h);
    return r;
  }
  double rhs(GO g) const {
    const auto [kind, i, j] = unknowns[static_cast<std::size_t>(g)];
    const double h = 1.0 / n, x = (i + 0.5) * h, y = (j + 0.5) * h;
    if (kind == u_face) return h * h * std::sin(3.0 * y) * (1.0 + x);
    if (kind == v_face) return h * h * std::cos(2.0 * x) * y;
    return 0.0;
  }
};

struct Distributed {
  Teuchos::RCP<const Map> rows;
  Teuchos::RCP<CrsMatrix> k, p;
  std::vector<std::vector<LO>> fields{2};
};

Distributed distribute(const Mac& mac) {
  const auto comm = world();
  const int r = comm->getRank();
  Distributed d;
  const GO first = mac.first_of[static_cast<std::size_t>(r)];
  const auto count = static_cast<std::size_t>(mac.first_of[static_cast<std::size_t>(r) + 1] - first);
  d.rows = Teuchos::rcp(new Map(static_cast<Tpetra::global_size_t>(mac.size()), count, 0, comm));
  d.k = Teuchos::rcp(new CrsMatrix(d.rows, 7));  // a face: 5 + the 2 cells beside it
  d.p = Teuchos::rcp(new CrsMatrix(d.rows, 5));
  for (std::size_t l = 0; l < count; ++l) {
    const GO g = first + static_cast<GO>(l);
    for (const bool pre : {false, true}) {
      std::vector<GO> cols;
      std::vector<double> vals;
      for (const auto& [c, v] : mac.row(g, pre)) cols.push_back(c), vals.push_back(v);
      (pre ? d.p : d.k)->insertGlobalValues(g, Teuchos::ArrayView<const GO>(cols), Teuchos::ArrayView<const double>(vals));
    }
    d.fields[mac.unknowns[static_cast<std::size_t>(g)][0] == Mac::cell ? 1 : 0].push_back(static_cast<LO>(l));
  }
  d.k->fillComplete();
  d.p->fillComplete();
  return d;
}

// The system solved serially (dense LU), every unknown.
Eigen::VectorXd serial_solution(const Mac& mac) {
  const auto N = static_cast<Eigen::Index>(mac.size());
  Eigen::MatrixXd k = Eigen::MatrixXd::Zero(N, N);
  Eigen::VectorXd b(N);
  for (GO g = 0; g < mac.size(); ++g) {
    for (const auto& [c, v] : mac.row(g, false)) k(g, c) = v;
    b(g) = mac.rhs(g);
  }
  return k.partialPivLu().solve(b);
}

SolveResult solve(const Mac& mac, const Distributed& d, const BlockOptions& block, MultiVector<double>& x,
                  const FieldSplit& fields) {
  auto b = Teuchos::rcp(new MultiVector<double>(d.rows, 1));
  {
    auto v = b->getLocalViewHost(Tpetra::Access::OverwriteAll);
    for (std::size_t l = 0; l < compat::local_num_elements(*d.rows); ++l)
      v(l, 0) = mac.rhs(d.rows->getGlobalElement(static_cast<LO>(l)));
  }
  SolverOptions options;
  options.tolerance = 1e-10;
  options.max_iterations = 500;
  return solve_block_system(fields, d.k, *d.p, Teuchos::rcpFromRef(x), b, block, options);
}

BlockOptions of_kind(BlockKind kind) {
  BlockOptions block;
  block.kind = kind;
  return block;
}

SolveResult solve(const Mac& mac, const Distributed& d, BlockKind kind, MultiVector<double>& x,
                  const FieldSplit& fields) {
  return solve(mac, d, of_kind(kind), x, fields);
}

SolveResult solve(const Mac& mac, const Distributed& d, BlockKind kind, MultiVector<double>& x) {
  return solve(mac, d, of_kind(kind), x, FieldSplit(d.rows, d.fields));
}

// x's largest difference from the serial solution.
double error_against(const Eigen::VectorXd& want, const MultiVector<double>& x) {
  auto v = x.getLocalViewHost(Tpetra::Access::ReadOnly);
  double worst = 0;
  for (std::size_t l = 0; l < compat::local_num_elements(*x.getMap()); ++l)
    worst = std::max(worst, std::abs(v(l, 0) - want(x.getMap()->getGlobalElement(static_cast<LO>(l)))));
  return worst;
}

}  // namespace

// Both kinds give the serial solution of the same system, at 1-4 processes
// (and the velocity field's rows are interleaved with the pressure's).
TEST(BlockSystem, StokesMatchesTheSerialSolve) {
  const auto comm = world();
  const Mac mac(8, comm->getSize());
  const Distributed d = distribute(mac);
  const Eigen::VectorXd want = serial_solution(mac);
  for (const BlockKind kind : {BlockKind::diagonal, BlockKind::upper_triangular}) {
    MultiVector<double> x(d.rows, 1);
    const SolveResult result = solve(mac, d, kind, x);
    EXPECT_TRUE(result.converged);
    EXPECT_LT(result.relative_residual, 1e-8);
    EXPECT_LT(error_against(want, x), 1e-7 * want.cwiseAbs().maxCoeff())
        << (kind == BlockKind::diagonal ? "diagonal" : "upper");
  }
}

// The same system numbered in blocks, as DOLFINx's blocked assembly hands it
// over: FieldSplit::in_blocks, each field's part of a vector a view of it
// (written through the view, seen in the vector), and the same solution.
TEST(BlockSystem, FieldsInBlocksAreViewsOfTheVector) {
  const auto comm = world();
  const Mac mac(8, comm->getSize(), /*in_blocks=*/true);
  const Distributed d = distribute(mac);
  const FieldSplit fields = FieldSplit::in_blocks(d.rows, {d.fields[0].size(), d.fields[1].size()});
  ASSERT_EQ(fields.owned_rows(0), d.fields[0]);
  ASSERT_EQ(fields.owned_rows(1), d.fields[1]);
  MultiVector<double> x(d.rows, 1);
  for (std::size_t f = 0; f < 2; ++f) {
    EXPECT_TRUE(fields.is_contiguous(f));
    const auto view = fields.field_view(x, f);
    EXPECT_EQ(view->getGlobalLength(), fields.field_map(f)->getGlobalNumElements());
    view->putScalar(static_cast<double>(f + 1));
  }
  {
    auto v = x.getLocalViewHost(Tpetra::Access::ReadOnly);
    for (std::size_t f = 0; f < 2; ++f)
      for (const LO r : d.fields[f]) EXPECT_EQ(v(static_cast<std::size_t>(r), 0), static_cast<double>(f + 1));
  }
  x.putScalar(0.0);
  const SolveResult result = solve(mac, d, BlockKind::upper_triangular, x, fields);
  EXPECT_TRUE(result.converged);
  const Eigen::VectorXd want = serial_solution(mac);
  EXPECT_LT(error_against(want, x), 1e-7 * want.cwiseAbs().maxCoeff());
  // Interleaved fields are not viewed (copy_field_to copies them).
  const Mac mixed(8, comm->getSize());
  const Distributed m = distribute(mixed);
  const FieldSplit interleaved(m.rows, m.fields);
  MultiVector<double> y(m.rows, 1);
  EXPECT_FALSE(interleaved.is_contiguous(0));
  EXPECT_THROW(interleaved.field_view(y, 0), std::invalid_argument);
}

// n Jacobi sweeps damped by omega from zero on the rows and columns `in`
// of the dense matrix m, for the right-hand side r (zero elsewhere).
Eigen::VectorXd jacobi(const Eigen::MatrixXd& m, const std::vector<bool>& in, const Eigen::VectorXd& r, int n,
                       double omega) {
  Eigen::VectorXd y = Eigen::VectorXd::Zero(r.size());
  for (int sweep = 0; sweep < n; ++sweep) {
    Eigen::VectorXd next = y;
    for (Eigen::Index i = 0; i < r.size(); ++i) {
      if (!in[static_cast<std::size_t>(i)]) continue;
      double residual = r(i);
      for (Eigen::Index j = 0; j < r.size(); ++j)
        if (in[static_cast<std::size_t>(j)]) residual -= m(i, j) * y(j);
      next(i) = y(i) + omega * residual / m(i, i);
    }
    y = next;
  }
  return y;
}

// BlockPreconditioner::apply against the same operator written serially
// with dense matrices, both kinds, fields interleaved (copied) and in blocks
// (viewed in place), with alpha and beta plain and not: Jacobi sweeps on
// both blocks (2 damped by 0.8 on A, 3 by 0.67 on S), so that the serial
// reference computes exactly what Ifpack2 does.
TEST(BlockSystem, PreconditionerAppliesAsTheSerialOperator) {
  const auto comm = world();
  for (const bool in_blocks : {false, true}) {
    const Mac mac(6, comm->getSize(), in_blocks);
    const Distributed d = distribute(mac);
    const auto N = static_cast<Eigen::Index>(mac.size());
    Eigen::MatrixXd k = Eigen::MatrixXd::Zero(N, N), p = Eigen::MatrixXd::Zero(N, N);
    std::vector<bool> velocity(static_cast<std::size_t>(N)), pressure(static_cast<std::size_t>(N));
    Eigen::VectorXd x(N);
    for (GO g = 0; g < mac.size(); ++g) {
      for (const auto& [c, v] : mac.row(g, false)) k(g, c) = v;
      for (const auto& [c, v] : mac.row(g, true)) p(g, c) = v;
      pressure[static_cast<std::size_t>(g)] = mac.unknowns[static_cast<std::size_t>(g)][0] == Mac::cell;
      velocity[static_cast<std::size_t>(g)] = !pressure[static_cast<std::size_t>(g)];
      x(g) = std::sin(static_cast<double>(g) + 1.0);
    }
    const auto restricted = [](const Eigen::VectorXd& v, const std::vector<bool>& in) {
      Eigen::VectorXd out = v;
      for (Eigen::Index i = 0; i < v.size(); ++i)
        if (!in[static_cast<std::size_t>(i)]) out(i) = 0.0;
      return out;
    };
    BlockOptions options;
    options.first = "RELAXATION";
    options.first_parameters = BlockOptions::damped_jacobi_sweeps(2, 0.8);
    options.second_parameters = BlockOptions::damped_jacobi_sweeps(3, 0.67);
    const FieldSplit fields = in_blocks ? FieldSplit::in_blocks(d.rows, {d.fields[0].size(), d.fields[1].size()})
                                        : FieldSplit(d.rows, d.fields);
    for (const BlockKind kind : {BlockKind::diagonal, BlockKind::upper_triangular}) {
      options.kind = kind;
      const BlockPreconditioner prec(fields, *d.k, *d.p, options);
      Eigen::VectorXd yp = jacobi(p, pressure, restricted(x, pressure), 3, 0.67), xu = restricted(x, velocity);
      if (kind == BlockKind::upper_triangular) {
        yp = -yp;
        xu -= restricted(k * yp, velocity);  // x_u - B^T y_p
      }
      const Eigen::VectorXd want = jacobi(p, velocity, xu, 2, 0.8) + yp;
      for (const auto& [alpha, beta] : {std::pair{1.0, 0.0}, std::pair{2.0, 0.5}}) {
        MultiVector<double> in(d.rows, 1), out(d.rows, 1);
        {
          auto vi = in.getLocalViewHost(Tpetra::Access::OverwriteAll);
          auto vo = out.getLocalViewHost(Tpetra::Access::OverwriteAll);
          for (std::size_t l = 0; l < vi.extent(0); ++l) {
            const GO g = d.rows->getGlobalElement(static_cast<LO>(l));
            vi(l, 0) = x(g);
            vo(l, 0) = std::cos(static_cast<double>(g));
          }
        }
        prec.apply(in, out, Teuchos::NO_TRANS, alpha, beta);
        auto v = out.getLocalViewHost(Tpetra::Access::ReadOnly);
        for (std::size_t l = 0; l < v.extent(0); ++l) {
          const GO g = d.rows->getGlobalElement(static_cast<LO>(l));
          EXPECT_NEAR(v(l, 0), alpha * want(g) + beta * std::cos(static_cast<double>(g)), 1e-12)
              << (in_blocks ? "in blocks, " : "interleaved, ") << (kind == BlockKind::diagonal ? "diagonal" : "upper")
              << ", alpha " << alpha << ", row " << g;
        }
      }
    }
  }
}

// InnerSolve on the pressure block S (CG with Jacobi sweeps, as step-55
// inverts its pressure mass matrix with CG): each application reaches its
// tolerance, alpha and beta included.
TEST(BlockSystem, AnInnerSolveReachesItsTolerance) {
  const auto comm = world();
  const Mac mac(8, comm->getSize(), /*in_blocks=*/true);
  const Distributed d = distribute(mac);
  const FieldSplit fields = FieldSplit::in_blocks(d.rows, {d.fields[0].size(), d.fields[1].size()});
  const auto s = fields.copy_block_to_new_matrix(*d.p, 1, 1);
  const InnerSolve inverse(s, make_preconditioner(s, "RELAXATION", BlockOptions::damped_jacobi_sweeps(1, 0.67)),
                           1e-9);
  MultiVector<double> x(s->getRowMap(), 2), y(s->getRowMap(), 2), z(s->getRowMap(), 2);
  x.randomize();
  y.randomize();
  Tpetra::deep_copy(z, y);
  inverse.apply(x, y, Teuchos::NO_TRANS, 2.0, 0.5);
  EXPECT_GT(inverse.last_iterations(), 0);
  // s (y - 0.5 z) / 2 = x
  y.update(-0.5, z, 1.0);
  y.scale(0.5);
  EXPECT_LT(relative_residual(*s, y, x), 1e-9);
}

// Both blocks inverted by inner CG solves (BlockOptions::first_tolerance,
// second_tolerance): the upper triangular kind then runs Flexible GMRES and
// still gives the serial solution, in fewer outer iterations than with one
// V-cycle on A; the diagonal kind with MINRES, a tight inner tolerance.
TEST(BlockSystem, InnerSolvesOnTheBlocksGiveTheSerialSolutionInFewerIterations) {
  const auto comm = world();
  const Mac mac(16, comm->getSize());
  const Distributed d = distribute(mac);
  const Eigen::VectorXd want = serial_solution(mac);
  for (const BlockKind kind : {BlockKind::diagonal, BlockKind::upper_triangular}) {
    MultiVector<double> once(d.rows, 1), inner(d.rows, 1);
    const SolveResult plain = solve(mac, d, kind, once);
    BlockOptions block = of_kind(kind);
    block.first_tolerance = 1e-8;
    block.second_tolerance = 1e-8;
    const SolveResult solved = solve(mac, d, block, inner, FieldSplit(d.rows, d.fields));
    const char* name = kind == BlockKind::diagonal ? "diagonal" : "upper";
    EXPECT_TRUE(solved.converged) << name;
    EXPECT_LT(solved.relative_residual, 1e-8) << name;
    EXPECT_LT(error_against(want, inner), 1e-7 * want.cwiseAbs().maxCoeff()) << name;
    EXPECT_LT(solved.iterations, plain.iterations) << name;
    if (comm->getRank() == 0)
      std::printf("%s: %d outer iterations with inner solves, %d with one application\n", name, solved.iterations,
                  plain.iterations);
  }
}

// The system numbered in blocks, kept as four separate matrices on maps of
// their own, as a code holding a block matrix has them: each field's
// contiguous number n renumbered 3 n + 5 + f (non-contiguous, different per
// field), so nothing lines up with the whole matrix's numbering by accident.
struct SeparateBlocks {
  std::array<Teuchos::RCP<const Map>, 2> maps;
  std::vector<std::vector<Teuchos::RCP<CrsMatrix>>> k;
  Teuchos::RCP<CrsMatrix> s;  // the Schur approximation: P's block (1, 1)
};

GO renumbered(GO n, std::size_t f) { return 3 * n + 5 + static_cast<GO>(f); }

Teuchos::RCP<CrsMatrix> renumbered_block(const CrsMatrix& block, const std::array<Teuchos::RCP<const Map>, 2>& maps,
                                         std::size_t f, std::size_t g) {
  auto out = Teuchos::rcp(new CrsMatrix(maps[f], std::max<std::size_t>(block.getGlobalMaxNumRowEntries(), 1)));
  for (std::size_t i = 0; i < compat::local_num_elements(*block.getRowMap()); ++i) {
    typename CrsMatrix::local_inds_host_view_type ind;
    typename CrsMatrix::values_host_view_type val;
    block.getLocalRowView(static_cast<LO>(i), ind, val);
    std::vector<GO> cols;
    std::vector<double> vals;
    for (std::size_t e = 0; e < ind.extent(0); ++e) {
      cols.push_back(renumbered(block.getColMap()->getGlobalElement(ind(e)), g));
      vals.push_back(static_cast<double>(val(e)));
    }
    if (!cols.empty())
      out->insertGlobalValues(maps[f]->getGlobalElement(static_cast<LO>(i)), Teuchos::ArrayView<const GO>(cols),
                              Teuchos::ArrayView<const double>(vals));
  }
  out->fillComplete(maps[g], maps[f]);
  return out;
}

SeparateBlocks separate_blocks(const Distributed& d, const FieldSplit& fields) {
  SeparateBlocks b;
  for (std::size_t f = 0; f < 2; ++f) {
    const auto& m = *fields.field_map(f);
    std::vector<GO> gids;
    for (std::size_t l = 0; l < compat::local_num_elements(m); ++l) gids.push_back(renumbered(m.getGlobalElement(static_cast<LO>(l)), f));
    b.maps[f] = Teuchos::rcp(new Map(m.getGlobalNumElements(), Teuchos::ArrayView<const GO>(gids), 0, m.getComm()));
  }
  b.k.resize(2);
  for (std::size_t f = 0; f < 2; ++f)
    for (std::size_t g = 0; g < 2; ++g)
      b.k[f].push_back(renumbered_block(*fields.copy_block_to_new_matrix(*d.k, f, g), b.maps, f, g));
  b.s = renumbered_block(*fields.copy_block_to_new_matrix(*d.p, 1, 1), b.maps, 1, 1);
  return b;
}

// A BlockOperator of the four blocks applies as the whole matrix does (both
// numbered in blocks, so their vectors' local values line up), plain and
// transposed, with alpha and beta; each field of its vector is a view.
TEST(BlockSystem, SeparateBlocksApplyAsTheWholeMatrix) {
  const auto comm = world();
  const Mac mac(8, comm->getSize(), /*in_blocks=*/true);
  const Distributed d = distribute(mac);
  const FieldSplit fields = FieldSplit::in_blocks(d.rows, {d.fields[0].size(), d.fields[1].size()});
  const SeparateBlocks b = separate_blocks(d, fields);
  const BlockOperator k(b.k);
  ASSERT_EQ(compat::local_num_elements(*k.getDomainMap()), compat::local_num_elements(*d.rows));
  EXPECT_TRUE(k.field_map(0)->isSameAs(*b.maps[0]));
  for (const Teuchos::ETransp mode : {Teuchos::NO_TRANS, Teuchos::TRANS})
    for (const auto& [alpha, beta] : {std::pair{1.0, 0.0}, std::pair{-2.0, 0.5}}) {
      MultiVector<double> x(d.rows, 2), y(d.rows, 2), bx(k.getDomainMap(), 2), by(k.getRangeMap(), 2);
      x.randomize();
      y.randomize();
      Tpetra::deep_copy(by, y);  // (the same local values: both numbered in blocks)
      {
        auto from = x.getLocalViewHost(Tpetra::Access::ReadOnly);
        auto to = bx.getLocalViewHost(Tpetra::Access::OverwriteAll);
        Kokkos::deep_copy(to, from);
      }
      d.k->apply(x, y, mode, alpha, beta);
      k.apply(bx, by, mode, alpha, beta);
      auto want = y.getLocalViewHost(Tpetra::Access::ReadOnly);
      auto got = by.getLocalViewHost(Tpetra::Access::ReadOnly);
      double worst = 0;
      for (std::size_t i = 0; i < want.extent(0); ++i)
        for (std::size_t j = 0; j < 2; ++j) worst = std::max(worst, std::abs(want(i, j) - got(i, j)));
      EXPECT_LT(worst, 1e-13) << (mode == Teuchos::NO_TRANS ? "K" : "K^T") << ", alpha " << alpha;
    }
  // Field 1 of a vector on the operator's map is a view on the blocks' own map.
  MultiVector<double> v(k.getDomainMap(), 1);
  const auto pressure = k.fields().field_view(v, 1);
  pressure->putScalar(3.0);
  EXPECT_EQ(v.getVector(0)->norm1(), 3.0 * static_cast<double>(b.maps[1]->getGlobalNumElements()));
}

// Solved through the separate blocks (MINRES and GMRES, S given as its own
// matrix): the serial solution, in the iterations the whole matrix takes.
TEST(BlockSystem, SeparateBlocksGiveTheSerialSolution) {
  const auto comm = world();
  const Mac mac(8, comm->getSize(), /*in_blocks=*/true);
  const Distributed d = distribute(mac);
  const FieldSplit fields = FieldSplit::in_blocks(d.rows, {d.fields[0].size(), d.fields[1].size()});
  const SeparateBlocks b = separate_blocks(d, fields);
  const auto k = Teuchos::rcp(new BlockOperator(b.k));
  const Eigen::VectorXd want = serial_solution(mac);
  for (const BlockKind kind : {BlockKind::diagonal, BlockKind::upper_triangular}) {
    auto x = Teuchos::rcp(new MultiVector<double>(k->getDomainMap(), 1)), rhs = Teuchos::rcp(new MultiVector<double>(k->getRangeMap(), 1));
    {
      auto v = rhs->getLocalViewHost(Tpetra::Access::OverwriteAll);
      for (std::size_t l = 0; l < v.extent(0); ++l) v(l, 0) = mac.rhs(d.rows->getGlobalElement(static_cast<LO>(l)));
    }
    SolverOptions options;
    options.tolerance = 1e-10;
    options.max_iterations = 500;
    const SolveResult separate = solve_block_system(k, b.s, x, rhs, of_kind(kind), options);
    MultiVector<double> whole_x(d.rows, 1);
    const SolveResult whole = solve(mac, d, kind, whole_x, fields);
    const char* name = kind == BlockKind::diagonal ? "diagonal" : "upper";
    EXPECT_TRUE(separate.converged) << name;
    EXPECT_LT(separate.relative_residual, 1e-8) << name;
    // (x's local values are in d.rows' order: both are numbered in blocks.)
    MultiVector<double> as_whole(d.rows, 1);
    Kokkos::deep_copy(as_whole.getLocalViewHost(Tpetra::Access::OverwriteAll), x->getLocalViewHost(Tpetra::Access::ReadOnly));
    EXPECT_LT(error_against(want, as_whole), 1e-7 * want.cwiseAbs().maxCoeff()) << name;
    EXPECT_LE(std::abs(separate.iterations - whole.iterations), 2) << name << ": " << separate.iterations << " against " << whole.iterations;
  }
}

// The point of a block preconditioner: iterations that level off as the grid
// is refined (16x16 to 64x64 cells), where MueLu on the whole matrix could
// not be used at all (K is indefinite) and no preconditioner grows as 1/h
// (which would double them). Measured here (1-4 processes) with
// BlockOptions' defaults (BlockOptions::velocity_multigrid() on A): MINRES
// 41-43, 45-48, 52-54; GMRES 23-25, 24-26, 28-29 (with the earlier 2 % drop
// default: MINRES 63-66, 78-80, 87; GMRES 40-42, 47-48, 49). The last
// refinement may add at most 20 % (+2).
TEST(BlockSystem, IterationsLevelOffUnderRefinement) {
  const auto comm = world();
  for (const BlockKind kind : {BlockKind::diagonal, BlockKind::upper_triangular}) {
    std::vector<int> iterations;
    for (const int n : {16, 32, 64}) {
      const Mac mac(n, comm->getSize());
      const Distributed d = distribute(mac);
      MultiVector<double> x(d.rows, 1);
      const SolveResult result = solve(mac, d, kind, x);
      EXPECT_TRUE(result.converged) << n;
      EXPECT_LT(result.relative_residual, 1e-8) << n;
      iterations.push_back(result.iterations);
    }
    const char* name = kind == BlockKind::diagonal ? "MINRES + block diagonal" : "GMRES + block upper triangular";
    EXPECT_LE(iterations[2], iterations[1] * 120 / 100 + 2)
        << name << ": " << iterations[0] << ", " << iterations[1] << ", " << iterations[2];
    if (comm->getRank() == 0)
      std::printf("%s, iterations at 16, 32, 64 cells a side: %d %d %d\n", name, iterations[0], iterations[1],
                  iterations[2]);
  }
}

// A field list that names a row twice, on one process in turn, is refused on
// every process, naming that process.
TEST(Faults, AFieldListNamingARowTwiceIsRefusedOnEveryProcess) {
  const auto comm = world();
  const Mac mac(4, comm->getSize());
  const Distributed d = distribute(mac);
  for (int bad = 0; bad < comm->getSize(); ++bad) {
    auto fields = d.fields;
    if (comm->getRank() == bad && !fields[0].empty()) fields[1].push_back(fields[0].front());
    dapetra::testing::expect_every_rank_throws([&] { FieldSplit split(d.rows, fields); }, bad, "fields");
  }
}

// A process that names another number of fields is refused on every
// process before any field's map is made (which would otherwise wait).
TEST(Faults, AnotherNumberOfFieldsOnOneProcessIsRefusedOnEveryProcess) {
  const auto comm = world();
  const Mac mac(4, comm->getSize());
  const Distributed d = distribute(mac);
  if (comm->getSize() < 2) GTEST_SKIP() << "needs a second process to differ";
  for (int bad = 0; bad < comm->getSize(); ++bad) {
    auto fields = d.fields;
    if (comm->getRank() == bad) fields.push_back({});
    try {
      FieldSplit split(d.rows, fields);
      ADD_FAILURE() << "another number of fields on rank " << bad << " was accepted";
    } catch (const ValidationError& e) {
      ASSERT_FALSE(e.problems().empty());
      EXPECT_EQ(e.problems()[0].key, "fields") << e.what();
    }
  }
}

// A field list that leaves one owned row out, on one process in turn, is
// refused on every process, naming that process.
TEST(Faults, AFieldListLeavingARowOutIsRefusedOnEveryProcess) {
  const auto comm = world();
  const Mac mac(4, comm->getSize());
  const Distributed d = distribute(mac);
  for (int bad = 0; bad < comm->getSize(); ++bad) {
    auto fields = d.fields;
    if (comm->getRank() == bad && !fields[1].empty()) fields[1].pop_back();
    dapetra::testing::expect_every_rank_throws([&] { FieldSplit split(d.rows, fields); }, bad, "fields");
  }
}

// A preconditioning matrix (the Schur approximation's) on another layout
// than the system's, on one process in turn, is refused on every process
// before any set-up: its rows there are one fewer.
TEST(Faults, APreconditioningMatrixOnAnotherLayoutIsRefusedOnEveryProcess) {
  const auto comm = world();
  if (comm->getSize() < 2) GTEST_SKIP() << "needs a second process to hold the moved row";
  const Mac mac(4, comm->getSize());
  const Distributed d = distribute(mac);
  const FieldSplit fields(d.rows, d.fields);
  for (int bad = 0; bad < comm->getSize(); ++bad) {
    // The same matrix with the bad process's last row moved to the next process.
    const int next = (bad + 1) % comm->getSize();
    std::vector<GO> mine;
    for (std::size_t l = 0; l < compat::local_num_elements(*d.rows); ++l) mine.push_back(d.rows->getGlobalElement(static_cast<LO>(l)));
    const GO moved = static_cast<GO>(mac.first_of[static_cast<std::size_t>(bad) + 1] - 1);
    if (comm->getRank() == bad) mine.pop_back();
    if (comm->getRank() == next) mine.push_back(moved);
    const auto other = Teuchos::rcp(new Map(static_cast<Tpetra::global_size_t>(mac.size()), Teuchos::ArrayView<const GO>(mine), 0, comm));
    auto p = Teuchos::rcp(new CrsMatrix(other, 5));
    for (const GO g : mine) {
      std::vector<GO> cols;
      std::vector<double> vals;
      for (const auto& [c, v] : mac.row(g, true)) cols.push_back(c), vals.push_back(v);
      p->insertGlobalValues(g, Teuchos::ArrayView<const GO>(cols), Teuchos::ArrayView<const double>(vals));
    }
    p->fillComplete();
    try {
      BlockPreconditioner prec(fields, *d.k, *p, BlockOptions{});
      ADD_FAILURE() << "a preconditioning matrix on another layout (rank " << bad << ") was accepted";
    } catch (const ValidationError& e) {
      ASSERT_FALSE(e.problems().empty());
      EXPECT_EQ(e.problems()[0].key, "preconditioning matrix") << e.what();
      EXPECT_EQ(e.problems()[0].rank, std::min(bad, next)) << e.what();
    }
  }
}

// Separate blocks that do not fit together on one process in turn (its
// blocks (0, 1) and (1, 0) swapped, so their maps are the other field's),
// and an S on another field's map there, or none: refused on every process,
// naming it.
TEST(Faults, SeparateBlocksThatDoNotFitAreRefusedOnEveryProcess) {
  const auto comm = world();
  const Mac mac(4, comm->getSize(), /*in_blocks=*/true);
  const Distributed d = distribute(mac);
  const FieldSplit fields = FieldSplit::in_blocks(d.rows, {d.fields[0].size(), d.fields[1].size()});
  const SeparateBlocks b = separate_blocks(d, fields);
  const BlockOperator k(b.k);
  for (int bad = 0; bad < comm->getSize(); ++bad) {
    auto swapped = b.k;
    if (comm->getRank() == bad) std::swap(swapped[0][1], swapped[1][0]);
    dapetra::testing::expect_every_rank_throws([&] { BlockOperator wrong(swapped); }, bad, "blocks");
    dapetra::testing::expect_every_rank_throws(
        [&] { BlockPreconditioner prec(k, comm->getRank() == bad ? b.k[0][0] : b.s, BlockOptions{}); }, bad,
        "preconditioning matrix");
    dapetra::testing::expect_every_rank_throws(
        [&] { BlockPreconditioner prec(k, comm->getRank() == bad ? Teuchos::null : b.s, BlockOptions{}); }, bad,
        "preconditioning matrix");
  }
}

// A preconditioner's name or parameters that differ on one process in turn
// (make_preconditioner, which every solve here goes through): refused on
// every process before any set-up, which would otherwise leave the
// processes in different collectives. And a parameter MueLu refuses on
// every process: its message, on every process, as a ValidationError.
TEST(Faults, PreconditionerArgumentsDifferingOnOneProcessAreRefusedOnEveryProcess) {
  const auto comm = world();
  const Mac mac(4, comm->getSize());
  const Distributed d = distribute(mac);
  const auto refused = [&](const std::function<void()>& step) {
    try {
      step();
      ADD_FAILURE() << "accepted";
    } catch (const ValidationError& e) {
      ASSERT_FALSE(e.problems().empty());
      EXPECT_EQ(e.problems()[0].key, "preconditioner") << e.what();
    }
  };
  Teuchos::ParameterList sweeps;
  sweeps.set("relaxation: sweeps", 2);
  for (int bad = 0; bad < comm->getSize() && comm->getSize() > 1; ++bad) {
    SCOPED_TRACE("rank " + std::to_string(bad));
    const bool here = comm->getRank() == bad;
    refused([&] { make_preconditioner(d.p, "RELAXATION", here ? sweeps : Teuchos::ParameterList()); });
    refused([&] { make_preconditioner(d.p, here ? "ILUT" : "RELAXATION"); });
    refused([&] { make_preconditioner(d.p, "MueLu", {}, here ? 2 : 1); });
  }
  Teuchos::ParameterList unknown;
  unknown.set("multigrid algorithm", "no such algorithm");
  try {
    make_preconditioner(d.p, "MueLu", unknown);
    ADD_FAILURE() << "MueLu accepted an unknown algorithm";
  } catch (const ValidationError& e) {
    ASSERT_FALSE(e.problems().empty());
    EXPECT_EQ(e.problems()[0].rank, 0);
  }
  // The same arguments everywhere, "user data" (each process's own objects,
  // printed as addresses) aside: accepted ("none": nothing to set up).
  Teuchos::ParameterList with_data;
  with_data.sublist("user data").set("mine", Teuchos::rcp(new int(comm->getRank())));
  EXPECT_NO_THROW(make_preconditioner(d.p, "none", with_data));
}
