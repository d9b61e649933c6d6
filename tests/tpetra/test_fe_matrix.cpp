// FEGraph and FEMatrix (dapetra/tpetra/fe_matrix.hpp) against a serial
// assembly of the same cells: random cells over random node numbers, dealt
// to processes at random, so rows are shared by any number of processes and
// owned rows take columns this process does not hold; one, two or three
// unknowns per node (interleaved, node * bs + component), with Dirichlet
// conditions on single components. Every entry is an integer sum, exact in
// any order.
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
  int bs = 1;                                      // unknowns per node
  std::vector<std::vector<global_index_t>> cells;  // global corners
  std::vector<int> part;                           // each cell's process
  // Unknown u = node * bs + component; with bs > 1 some nodes have one
  // component fixed and the others free.
  bool constrained(global_index_t u) const { return u % 5 == 2; }
  int width() const { return corners * bs; }
  // The element matrix of cell c: integers, not symmetric, so a transposed
  // or misplaced entry shows.
  std::vector<double> element(std::size_t c) const {
    const int w = width();
    std::vector<double> k(static_cast<std::size_t>(w * w));
    for (int a = 0; a < w; ++a)
      for (int b = 0; b < w; ++b)
        k[static_cast<std::size_t>(a * w + b)] = static_cast<double>(1 + (static_cast<int>(c) * 7 + a * 3 + b) % 11);
    return k;
  }
};

Problem3 draw(std::mt19937_64& rng, int P, int bs = 1) {
  Problem3 p;
  p.bs = bs;
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

// The serial matrix over the unknowns: every pair of a cell's unknowns is
// an entry; with `constrain`, rows and columns of constrained unknowns are
// zero but for a unit diagonal.
std::vector<std::map<GO, double>> serial_rows(const Problem3& p, bool constrain = true) {
  std::vector<std::map<GO, double>> rows(static_cast<std::size_t>(p.nodes * p.bs));
  const int w = p.width();
  const auto unknown = [&](std::size_t c, int a) { return p.cells[c][static_cast<std::size_t>(a / p.bs)] * p.bs + a % p.bs; };
  for (std::size_t c = 0; c < p.cells.size(); ++c) {
    const auto k = p.element(c);
    for (int a = 0; a < w; ++a)
      for (int b = 0; b < w; ++b) {
        const global_index_t r = unknown(c, a), s = unknown(c, b);
        const bool out = constrain && (p.constrained(r) || p.constrained(s));
        rows[static_cast<std::size_t>(r)][static_cast<GO>(s)] += out ? 0.0 : k[static_cast<std::size_t>(a * w + b)];
      }
  }
  for (global_index_t g = 0; g < p.nodes * p.bs && constrain; ++g)
    if (p.constrained(g) && !rows[static_cast<std::size_t>(g)].empty()) rows[static_cast<std::size_t>(g)][static_cast<GO>(g)] = 1.0;
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
  std::vector<Dim> dims{Dim::unstructured(p.nodes, comm->getSize(), comm->getRank(), b.local.nodes, false)};
  if (p.bs > 1) dims.push_back(Dim::undistributed(p.bs));
  b.layout = TpetraLayout::create(dims, comm, opt);
  b.graph = FEGraph::create(b.layout, b.local.cells, p.corners);
  return b;
}

void assemble(FEMatrix& a, const Problem3& p, const Local& l, double scale) {
  a.begin_assembly();
  for (std::size_t c = 0; c < l.cell_ids.size(); ++c) {
    auto k = p.element(l.cell_ids[c]);
    for (double& v : k) v *= scale;
    a.add_element(c, ElementMatrix{k.data(), p.width(), p.width()});
  }
  a.end_assembly();
}

// Per held unknown of this process, whether it is constrained.
std::vector<char> constrained_flags(const Problem3& p, const Local& l) {
  std::vector<char> flags;
  for (global_index_t g : l.nodes)
    for (int i = 0; i < p.bs; ++i) flags.push_back(p.constrained(g * p.bs + i));
  return flags;
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
  for (int trial = 0; trial < 36; ++trial) {
    const Problem3 p = draw(rng, P, 1 + trial % 3);
    // Every other trial the highest holder owns a shared node: owners are
    // then not the lowest rank, and rows travel both ways.
    const SharedIndexOwner highest = [](global_index_t, const std::vector<int>& holders) { return holders.back(); };
    const Built b = build(p, trial % 2 ? highest : SharedIndexOwner(lowest_holder));
    ASSERT_EQ(b.graph->block_size(), p.bs);
    FEMatrix a(b.graph, constrained_flags(p, b.local));
    const auto want = serial_rows(p);
    // Assembled twice, the second time into the existing structure with
    // every element doubled: the matrix follows, with nothing rebuilt.
    for (double scale : {1.0, 2.0}) {
      assemble(a, p, b.local, scale);
      SCOPED_TRACE("trial " + std::to_string(trial) + ", block size " + std::to_string(p.bs));
      rows_unlike_serial(a, p, want, scale, true);
    }
    // Each global row once, on its owner, and the operator works as Tpetra's.
    EXPECT_TRUE(a.matrix()->isFillComplete());
    EXPECT_EQ(a.matrix()->getRowMap()->getGlobalNumElements(), static_cast<Tpetra::global_size_t>(
                                                                   std::count_if(want.begin(), want.end(), [](const auto& r) { return !r.empty(); })));
  }
}

// Runs `check` on a fresh draw at one, two and three unknowns per node,
// drawn from DAPETRA_TEST_SEED or `fallback`.
template <class Check>
void at_each_block_size(std::uint64_t fallback, Check check) {
  const auto seed = dapetra::testing::test_seed(fallback);
  SCOPED_TRACE(seed.replay);
  std::mt19937_64 rng(seed.value);
  for (int bs = 1; bs <= 3; ++bs) {
    SCOPED_TRACE("block size " + std::to_string(bs));
    const Problem3 p = draw(rng, world()->getSize(), bs);
    check(p, build(p));
  }
}

// y = A x through Tpetra against the serial product (x = global index + 1),
// at one, two and three unknowns per node.
TEST(FEMatrix, AppliesAsTheSerialMatrix) {
  at_each_block_size(707, [](const Problem3& p, const Built& b) {
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
  });
}

// Lifting per component: with prescribed values g on the constrained
// unknowns, lift_element on every cell and the right-hand side's halo
// assembly give, on each owned unknown, -(sum over constrained s of A(u, s)
// g(s)) from the unconstrained serial matrix, and g itself where u is
// constrained.
TEST(FEMatrix, LiftsEachComponentAsTheSerialMatrix) {
  at_each_block_size(808, [](const Problem3& p, const Built& b) {
    const int bs = p.bs;
    const std::vector<char> flags = constrained_flags(p, b.local);
    FEMatrix a(b.graph, flags);
    const auto prescribed = [](global_index_t u) { return static_cast<double>(3 + u % 7); };
    std::vector<double> g, rhs(flags.size(), 0.0);
    for (global_index_t node : b.local.nodes)
      for (int i = 0; i < bs; ++i) g.push_back(prescribed(node * bs + i));
    a.begin_assembly();
    for (std::size_t c = 0; c < b.local.cell_ids.size(); ++c) {
      const auto k = p.element(b.local.cell_ids[c]);
      a.add_element(c, ElementMatrix{k.data(), p.width(), p.width()});
      a.lift_element(c, ElementMatrix{k.data(), p.width(), p.width()}, g.data(), rhs.data());
    }
    a.end_assembly();
    DistArray f;
    f.dim_data = b.layout->distribution()->dim_data();
    f.buffer = view_buffer(rhs.data(), b.layout->distribution()->local_shape());
    mpi::HaloPlan::create(b.layout->distribution())->assemble<double>(f);  // collective
    a.set_constrained_values(g.data(), rhs.data());
    const auto rows = serial_rows(p, false);
    const Map& buffer = *b.layout->buffer_map();
    std::size_t checked = 0;
    for (std::size_t i = 0; i < rhs.size(); ++i) {
      const GO u = buffer.getGlobalElement(static_cast<LO>(i));
      if (b.layout->owned_map()->getLocalElement(u) == Teuchos::OrdinalTraits<LO>::invalid()) continue;
      double want = 0;
      if (p.constrained(u)) want = prescribed(u);
      else
        for (const auto& [col, v] : rows[static_cast<std::size_t>(u)])
          if (p.constrained(col)) want -= v * prescribed(col);
      EXPECT_EQ(rhs[i], want) << "unknown " << u;
      ++checked;
    }
    EXPECT_EQ(checked, compat::local_num_elements(*b.layout->owned_map()));
  });
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

// Another layout (alike in shape, of another creation) on one process at a
// time: every process throws an error naming that rank (beside rank 0, the
// reference), before any graph is built from maps that differ (the graph's
// index map over the nodes agrees on its layout first).
TEST(Faults, FEGraphGivenAnotherLayoutOnOneProcessFailsEveryRank) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  if (P < 2) GTEST_SKIP() << "needs two processes to differ";
  std::mt19937_64 rng(13);
  const Problem3 p = draw(rng, P);
  const Local l = local_part(p, r);
  const std::vector<Dim> dims{Dim::unstructured(p.nodes, P, r, l.nodes, false)};
  const auto layout = TpetraLayout::create(dims, comm), other = TpetraLayout::create(dims, comm);
  for (int bad = 0; bad < P; ++bad) {
    SCOPED_TRACE("another layout on rank " + std::to_string(bad));
    bool threw = false, named = false;
    try {
      FEGraph::create(r == bad ? other : layout, l.cells, p.corners);
    } catch (const ValidationError& e) {
      threw = true;
      for (const dapetra::Problem& q : e.problems()) named = named || (q.rank == bad && q.key == "layout");
    }
    EXPECT_TRUE(threw);
    EXPECT_TRUE(named);
    int everyone = 0, mine = threw ? 1 : 0;
    MPI_Allreduce(&mine, &everyone, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(everyone, P);
  }
  EXPECT_NO_THROW(FEGraph::create(layout, l.cells, p.corners));
}

// Element matrices of the wrong shape (to add_element or lift_element), or a
// cell number past the graph's, on one process: both skip them, and
// end_assembly throws on every process; the matrix assembles again
// afterwards. Two unknowns per node, so a corners x corners matrix (one
// value per node) is among the wrong shapes.
TEST(Faults, FEMatrixWrongElementFailsEveryRankAtEndAssembly) {
  const auto comm = world();
  const int P = comm->getSize();
  std::mt19937_64 rng(12);
  const Problem3 p = draw(rng, P, 2);
  const Built b = build(p);
  FEMatrix a(b.graph);
  std::vector<double> rhs(b.local.nodes.size() * 2, 0.0);
  const int w = p.width();
  for (int bad = 0; bad < P; ++bad)
    for (int kind = 0; kind < 4; ++kind) {
      a.begin_assembly();
      for (std::size_t c = 0; c < b.local.cell_ids.size(); ++c) {
        auto k = p.element(b.local.cell_ids[c]);
        const bool wrong = comm->getRank() == bad && c == 0;
        if (wrong && kind == 0) a.add_element(c, ElementMatrix{k.data(), w, w - 1});
        else if (wrong && kind == 1) a.add_element(b.local.cell_ids.size() + 3, ElementMatrix{k.data(), w, w});
        else if (wrong && kind == 3) a.add_element(c, ElementMatrix{k.data(), p.corners, p.corners});
        else a.add_element(c, ElementMatrix{k.data(), w, w});
        if (wrong && kind == 2) a.lift_element(c, ElementMatrix{k.data(), w - 1, w}, rhs.data(), rhs.data());
      }
      expect_every_rank_throws([&] { a.end_assembly(); }, bad, kind == 1 ? "cell" : "element_matrix");
    }
  assemble(a, p, b.local, 1.0);  // usable again: the serial matrix, every fault forgotten
  EXPECT_EQ(rows_unlike_serial(a, p, serial_rows(p, false), 1.0, false), 0);
}

// A block size that differs on one process: the nodes x components layout
// is refused on every process, naming the axis and the rank, before any
// graph is built.
TEST(Faults, BlockSizeThatDiffersOnOneProcessFailsEveryRank) {
  const auto comm = world();
  const int P = comm->getSize();
  std::mt19937_64 rng(14);
  const Problem3 p = draw(rng, P, 2);
  const Local l = local_part(p, comm->getRank());
  for (int bad = 0; bad < P && P > 1; ++bad) {
    const std::vector<Dim> dims{Dim::unstructured(p.nodes, P, comm->getRank(), l.nodes, false),
                                Dim::undistributed(comm->getRank() == bad ? 3 : 2)};
    try {
      TpetraLayout::create(dims, comm);
      ADD_FAILURE() << "block size 3 on rank " << bad << " beside 2 was accepted";
    } catch (const ValidationError& e) {
      // The global shape is checked against rank 0's: the first rank that
      // differs from it is named, with axis 1's size (rank 1 when rank 0 is the odd one).
      ASSERT_FALSE(e.problems().empty());
      EXPECT_EQ(e.problems()[0].rank, bad == 0 ? 1 : bad);
      EXPECT_EQ(e.problems()[0].dim, 1);
      EXPECT_EQ(e.problems()[0].key, "size");
      EXPECT_EQ(e.problems()[0].value, bad == 0 ? "2" : "3");
    }
  }
}

// Components made a column axis (bs separate vectors, not interleaved
// unknowns): FEGraph refuses the layout on every process, each naming itself.
TEST(Faults, FEGraphRefusesAColumnAxisOnEveryRank) {
  const auto comm = world();
  const int P = comm->getSize();
  std::mt19937_64 rng(15);
  const Problem3 p = draw(rng, P, 2);
  const Local l = local_part(p, comm->getRank());
  TpetraLayoutOptions opt;
  opt.column_axis = 0;  // components x nodes: each component one contiguous column
  const auto layout = TpetraLayout::create({Dim::undistributed(2), Dim::unstructured(p.nodes, P, comm->getRank(), l.nodes, false)},
                                           comm, opt);
  try {
    FEGraph::create(layout, l.cells, p.corners);
    ADD_FAILURE() << "a column axis was taken for components";
  } catch (const ValidationError& e) {
    ASSERT_EQ(e.problems().size(), static_cast<std::size_t>(P));
    EXPECT_EQ(e.problems()[0].key, "dim_data");
  }
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

// A nodes x components array (owned nodes first) is one Tpetra vector over
// the interleaved unknowns, on the matrix's domain map, and it is the
// array's memory; the same components as a column axis are separate vectors.
TEST(FEMatrix, NodesTimesComponentsIsOneInterleavedVectorWithoutCopy) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  // Nodes 4r..4r+3 owned here, and 4r+4 shared with the next process (owned
  // there: the highest holder owns a shared node, so the owned come first).
  std::vector<global_index_t> nodes{4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3};
  if (r + 1 < P) nodes.push_back(4 * r + 4);
  std::vector<double> memory(nodes.size() * 3);
  for (std::size_t i = 0; i < memory.size(); ++i) memory[i] = static_cast<double>(nodes[i / 3] * 3 + static_cast<global_index_t>(i % 3));
  DistArray a;
  a.dim_data = {Dim::unstructured(4 * P, P, r, nodes, false), Dim::undistributed(3)};
  a.buffer = view_buffer(memory.data(), {static_cast<global_index_t>(nodes.size()), 3});
  TpetraLayoutOptions highest;
  highest.distribution.ownership = mpi::Ownership::highest_holder();
  const auto layout = TpetraLayout::create(a, comm, highest);
  const auto x = owned_view<double>(*layout, a);
  EXPECT_EQ(x->getNumVectors(), 1u);
  ASSERT_EQ(x->getLocalLength(), 12u);
  const auto v = x->getData(0);
  EXPECT_EQ(v.getRawPtr(), memory.data());  // no copy
  for (std::size_t i = 0; i < 12; ++i)  // row i is unknown node * 3 + component, its value that number
    EXPECT_EQ(v[static_cast<Teuchos_Ordinal>(i)], static_cast<double>(x->getMap()->getGlobalElement(static_cast<LO>(i))));
  // The graph over this layout has the same map as its domain.
  std::vector<local_index_t> cells{0, 1, 2, 1, 2, 3};
  if (r + 1 < P) cells.insert(cells.end(), {2, 3, 4});
  const auto graph = FEGraph::create(layout, cells, 3);
  EXPECT_TRUE(graph->graph()->getDomainMap()->isSameAs(*x->getMap()));
  TpetraLayoutOptions columns;
  columns.column_axis = 0;  // components x nodes, each component a column
  std::vector<double> by_component(memory.size());
  DistArray c;
  c.dim_data = {Dim::undistributed(3), Dim::unstructured(4 * P, P, r, nodes, false)};
  c.buffer = view_buffer(by_component.data(), {3, static_cast<global_index_t>(nodes.size())});
  EXPECT_EQ(owned_view<double>(*TpetraLayout::create(c, comm, columns), c)->getNumVectors(), 3u);
}
