// FEGraph and FEMatrix (dapetra/tpetra/fe_matrix.hpp) against a serial
// assembly of the same cells: random cells over random node numbers, dealt
// to processes at random, so rows are shared by any number of processes and
// owned rows take columns this process does not hold. Every entry is an
// integer sum, exact in any order.
#include <gtest/gtest.h>

#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Map.hpp>
#include <algorithm>
#include <map>
#include <random>

#include "../common/seed.hpp"
#include "dapetra/tpetra/compat.hpp"
#include "dapetra/tpetra/tpetra.hpp"
#include "tpetra_test_util.hpp"

using namespace dapetra;
using namespace dapetra::tpetra;
using dapetra::testing::expect_every_rank_throws;
using dapetra::testing::world;

namespace {

// One draw of the whole problem, alike on every process.
struct Problem3 {
  global_index_t nodes = 0;
  int corners = 3;
  std::vector<std::vector<global_index_t>> cells;  // global corners
  std::vector<int> part;                           // each cell's process
  bool constrained(global_index_t g) const { return g % 5 == 2; }
  // The element matrix of cell c: integers, not symmetric, so a transposed
  // or misplaced entry shows.
  std::vector<double> element(std::size_t c) const {
    std::vector<double> k(static_cast<std::size_t>(corners * corners));
    for (int a = 0; a < corners; ++a)
      for (int b = 0; b < corners; ++b)
        k[static_cast<std::size_t>(a * corners + b)] = static_cast<double>(1 + (static_cast<int>(c) * 7 + a * 3 + b) % 11);
    return k;
  }
};

Problem3 draw(std::mt19937_64& rng, int P) {
  Problem3 p;
  p.nodes = std::uniform_int_distribution<global_index_t>(4, 40)(rng);
  p.corners = std::uniform_int_distribution<int>(2, 4)(rng);
  const int n_cells = std::uniform_int_distribution<int>(P, 30)(rng);
  std::vector<global_index_t> all(static_cast<std::size_t>(p.nodes));
  std::iota(all.begin(), all.end(), 0);
  for (int c = 0; c < n_cells; ++c) {
    std::shuffle(all.begin(), all.end(), rng);
    p.cells.emplace_back(all.begin(), all.begin() + p.corners);
    p.part.push_back(c < P ? c : std::uniform_int_distribution<int>(0, P - 1)(rng));  // nobody empty
  }
  // A node no cell touches is nobody's: number the touched ones 0, 1, ...
  std::vector<global_index_t> touched;
  for (const auto& cell : p.cells) touched.insert(touched.end(), cell.begin(), cell.end());
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  for (auto& cell : p.cells)
    for (auto& g : cell) g = std::lower_bound(touched.begin(), touched.end(), g) - touched.begin();
  p.nodes = static_cast<global_index_t>(touched.size());
  return p;
}

// This process's nodes (those its cells touch, ascending), cells in local positions.
struct Local {
  std::vector<global_index_t> nodes;
  std::vector<local_index_t> cells;
  std::vector<std::size_t> cell_ids;
};
Local local_part(const Problem3& p, int rank) {
  Local l;
  for (std::size_t c = 0; c < p.cells.size(); ++c)
    if (p.part[c] == rank) l.nodes.insert(l.nodes.end(), p.cells[c].begin(), p.cells[c].end());
  // One node more, which none of this process's cells may touch: under the
  // lowest-holder rule it is often owned here, its row built from others' cells.
  l.nodes.push_back((7 * rank + 3) % p.nodes);
  std::sort(l.nodes.begin(), l.nodes.end());
  l.nodes.erase(std::unique(l.nodes.begin(), l.nodes.end()), l.nodes.end());
  for (std::size_t c = 0; c < p.cells.size(); ++c)
    if (p.part[c] == rank) {
      l.cell_ids.push_back(c);
      for (global_index_t g : p.cells[c])
        l.cells.push_back(static_cast<local_index_t>(std::lower_bound(l.nodes.begin(), l.nodes.end(), g) - l.nodes.begin()));
    }
  return l;
}

// The serial matrix: every pair of a cell is an entry; with `constrain`,
// rows and columns of constrained nodes are zero but for a unit diagonal.
std::vector<std::map<GO, double>> serial_rows(const Problem3& p, bool constrain = true) {
  std::vector<std::map<GO, double>> rows(static_cast<std::size_t>(p.nodes));
  for (std::size_t c = 0; c < p.cells.size(); ++c) {
    const auto k = p.element(c);
    for (int a = 0; a < p.corners; ++a)
      for (int b = 0; b < p.corners; ++b) {
        const global_index_t r = p.cells[c][static_cast<std::size_t>(a)], s = p.cells[c][static_cast<std::size_t>(b)];
        const bool out = constrain && (p.constrained(r) || p.constrained(s));
        rows[static_cast<std::size_t>(r)][s] += out ? 0.0 : k[static_cast<std::size_t>(a * p.corners + b)];
      }
  }
  for (global_index_t g = 0; g < p.nodes && constrain; ++g)
    if (p.constrained(g) && !rows[static_cast<std::size_t>(g)].empty()) rows[static_cast<std::size_t>(g)][g] = 1.0;
  return rows;
}

std::map<GO, double> row_of(const CrsMatrix& a, GO row) {
  const std::size_t n = a.getNumEntriesInGlobalRow(row);
  CrsMatrix::nonconst_global_inds_host_view_type cols("cols", n);
  CrsMatrix::nonconst_values_host_view_type vals("vals", n);
  std::size_t got = 0;
  a.getGlobalRowCopy(row, cols, vals, got);
  std::map<GO, double> out;
  for (std::size_t k = 0; k < got; ++k) out[cols[k]] = vals[k];
  return out;
}

struct Built {
  Local local;
  std::shared_ptr<const TpetraLayout> layout;
  std::shared_ptr<const FEGraph> graph;
};
Built build(const Problem3& p, const SharedIndexOwner& owner = lowest_holder) {
  const auto comm = world();
  Built b;
  b.local = local_part(p, comm->getRank());
  TpetraLayoutOptions opt;
  opt.distribution.ownership = mpi::Ownership::by_rule(owner);
  b.layout = TpetraLayout::create({Dim::unstructured(p.nodes, comm->getSize(), comm->getRank(), b.local.nodes, false)}, comm, opt);
  b.graph = FEGraph::create(b.layout, b.local.cells, p.corners);
  return b;
}

void assemble(FEMatrix& a, const Problem3& p, const Local& l, double scale) {
  a.begin_assembly();
  for (std::size_t c = 0; c < l.cell_ids.size(); ++c) {
    auto k = p.element(l.cell_ids[c]);
    for (double& v : k) v *= scale;
    a.add_element(c, ElementMatrix{k.data(), p.corners, p.corners});
  }
  a.end_assembly();
}

// How many rows `a` owns that differ from the serial rows `want` with the
// unconstrained ones times `scale` (each reported); 0 when all agree.
// EXPECT, not ASSERT, inside: a rank that returned early would leave the
// others waiting in the next collective.
int rows_unlike_serial(const FEMatrix& a, const Problem3& p, const std::vector<std::map<GO, double>>& want,
                       double scale, bool constrained) {
  const Map& rows = *a.matrix()->getRowMap();
  int unlike = 0;
  for (std::size_t i = 0; i < compat::local_num_elements(rows); ++i) {
    const GO g = rows.getGlobalElement(static_cast<LO>(i));
    auto expect = want[static_cast<std::size_t>(g)];
    if (!(constrained && p.constrained(g)))
      for (auto& [col, v] : expect) v *= scale;
    const auto got = row_of(*a.matrix(), g);
    EXPECT_EQ(got, expect) << "scale " << scale << " row " << g;
    unlike += got != expect;
  }
  return unlike;
}

}  // namespace

TEST(FEMatrix, EqualsTheSerialAssemblyOnRandomCells) {
  const auto comm = world();
  const int P = comm->getSize();
  const auto seed = dapetra::testing::test_seed(606);
  SCOPED_TRACE(seed.replay);
  std::mt19937_64 rng(seed.value);
  for (int trial = 0; trial < 25; ++trial) {
    const Problem3 p = draw(rng, P);
    // Every other trial the highest holder owns a shared node: owners are
    // then not the lowest rank, and rows travel both ways.
    const SharedIndexOwner highest = [](global_index_t, const std::vector<int>& holders) { return holders.back(); };
    const Built b = build(p, trial % 2 ? highest : SharedIndexOwner(lowest_holder));
    std::vector<char> constrained;
    for (global_index_t g : b.local.nodes) constrained.push_back(p.constrained(g));
    FEMatrix a(b.graph, constrained);
    const auto want = serial_rows(p);
    // Assembled twice, the second time into the existing structure with
    // every element doubled: the matrix follows, with nothing rebuilt.
    for (double scale : {1.0, 2.0}) {
      assemble(a, p, b.local, scale);
      SCOPED_TRACE("trial " + std::to_string(trial));
      rows_unlike_serial(a, p, want, scale, true);
    }
    // Each global row once, on its owner, and the operator works as Tpetra's.
    EXPECT_TRUE(a.matrix()->isFillComplete());
    EXPECT_EQ(a.matrix()->getRowMap()->getGlobalNumElements(), static_cast<Tpetra::global_size_t>(
                                                                   std::count_if(want.begin(), want.end(), [](const auto& r) { return !r.empty(); })));
  }
}

// y = A x through Tpetra against the serial product (x = global index + 1).
TEST(FEMatrix, AppliesAsTheSerialMatrix) {
  const auto comm = world();
  const auto seed = dapetra::testing::test_seed(707);
  SCOPED_TRACE(seed.replay);
  std::mt19937_64 rng(seed.value);
  const Problem3 p = draw(rng, comm->getSize());
  const Built b = build(p);
  FEMatrix a(b.graph);
  assemble(a, p, b.local, 1.0);
  const auto& A = *a.matrix();
  Tpetra::Vector<double, LO, GO, Node> x(A.getDomainMap()), y(A.getRangeMap());
  for (std::size_t i = 0; i < compat::local_num_elements(*A.getDomainMap()); ++i)
    x.replaceLocalValue(static_cast<LO>(i), static_cast<double>(A.getDomainMap()->getGlobalElement(static_cast<LO>(i)) + 1));
  A.apply(x, y);
  const auto rows = serial_rows(p, false);
  const auto yv = y.getData();
  for (std::size_t i = 0; i < compat::local_num_elements(*A.getRangeMap()); ++i) {
    const GO g = A.getRangeMap()->getGlobalElement(static_cast<LO>(i));
    double want = 0;
    for (const auto& [col, v] : rows[static_cast<std::size_t>(g)]) want += v * static_cast<double>(col + 1);
    EXPECT_EQ(yv[static_cast<Teuchos_Ordinal>(i)], want) << "row " << g;
  }
}

// A cell naming a node its process does not hold, on one process at a time:
// every process throws the same error, naming that rank.
TEST(Faults, FEGraphCellOutsideTheLayoutFailsEveryRank) {
  const auto comm = world();
  const int P = comm->getSize();
  std::mt19937_64 rng(11);
  const Problem3 p = draw(rng, P);
  for (int bad = 0; bad < P; ++bad) {
    Local l = local_part(p, comm->getRank());
    if (comm->getRank() == bad) l.cells[0] = static_cast<local_index_t>(l.nodes.size());
    const auto layout = TpetraLayout::create({Dim::unstructured(p.nodes, P, comm->getRank(), l.nodes, false)}, comm);
    expect_every_rank_throws([&] { FEGraph::create(layout, l.cells, p.corners); }, bad, "cells");
  }
}

// Element matrices of the wrong shape (to add_element or lift_element), or a
// cell number past the graph's, on one process: both skip them, and end_assembly throws on every
// process; the matrix assembles again afterwards.
TEST(Faults, FEMatrixWrongElementFailsEveryRankAtEndAssembly) {
  const auto comm = world();
  const int P = comm->getSize();
  std::mt19937_64 rng(12);
  const Problem3 p = draw(rng, P);
  const Built b = build(p);
  FEMatrix a(b.graph);
  std::vector<double> rhs(b.local.nodes.size(), 0.0);
  for (int bad = 0; bad < P; ++bad)
    for (int kind = 0; kind < 3; ++kind) {
      a.begin_assembly();
      for (std::size_t c = 0; c < b.local.cell_ids.size(); ++c) {
        auto k = p.element(b.local.cell_ids[c]);
        const bool wrong = comm->getRank() == bad && c == 0;
        if (wrong && kind == 0) a.add_element(c, ElementMatrix{k.data(), p.corners, p.corners - 1});
        else if (wrong && kind == 1) a.add_element(b.local.cell_ids.size() + 3, ElementMatrix{k.data(), p.corners, p.corners});
        else a.add_element(c, ElementMatrix{k.data(), p.corners, p.corners});
        if (wrong && kind == 2) a.lift_element(c, ElementMatrix{k.data(), p.corners - 1, p.corners}, rhs.data(), rhs.data());
      }
      expect_every_rank_throws([&] { a.end_assembly(); }, bad, kind == 1 ? "cell" : "element_matrix");
    }
  assemble(a, p, b.local, 1.0);  // usable again: the serial matrix, every fault forgotten
  EXPECT_EQ(rows_unlike_serial(a, p, serial_rows(p, false), 1.0, false), 0);
}

TEST(Faults, FEMatrixDirichletFlagsOfTheWrongLengthFailEveryRank) {
  const auto comm = world();
  const int P = comm->getSize();
  std::mt19937_64 rng(13);
  const Problem3 p = draw(rng, P);
  const Built b = build(p);
  for (int bad = 0; bad < P; ++bad) {
    std::vector<char> flags(b.local.nodes.size() + (comm->getRank() == bad ? 1 : 0), 0);
    expect_every_rank_throws([&] { FEMatrix a(b.graph, flags); }, bad, "constrained");
  }
}
