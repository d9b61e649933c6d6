// The two finite-element assembly engines on the same work: Dapetra's
// FEGraph/FEMatrix (dapetra-fem's; entries placed once, copies of shared
// rows summed by a halo plan over the entries) against Tpetra's own
// FECrsGraph/FECrsMatrix (what deal.II's TpetraSparseMatrix is built on),
// used as Tpetra's finite-element examples use it at their fastest: the
// graph built once from the cells, local row and column indices looked up
// once, then per assembly beginAssembly, setAllToScalar(0), the local
// matrix's sumIntoValues per cell row, endAssembly. Same mesh, same partition, same maps, same element matrices;
// both matrices must give the same product with one vector.
//
// The mesh: an n x n grid of nodes in row strips, two triangles per square;
// a strip's top row of nodes is shared with the next strip (owned by the lower rank).
#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_FECrsGraph.hpp>
#include <Tpetra_FECrsMatrix.hpp>
#include <Tpetra_Map.hpp>
#include <Tpetra_Vector.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "dapetra/tpetra/compat.hpp"
#include "dapetra/tpetra/tpetra.hpp"

using namespace dapetra;
using namespace dapetra::tpetra;
using bench::Report;
using bench::Row;

namespace dapetra::bench {
namespace {

constexpr int corners = 3;

// This process's strip: its held nodes (ascending global index) and its
// cells as positions among them.
struct Strip {
  std::vector<global_index_t> held;
  std::vector<local_index_t> cells;
};

Strip strip(global_index_t n, int P, int r) {
  const global_index_t squares = n - 1, first = squares * r / P, last = squares * (r + 1) / P;  // cell rows [first, last)
  Strip s;
  if (first == last) return s;
  for (global_index_t g = first * n; g < (last + 1) * n; ++g) s.held.push_back(g);
  const auto at = [&](global_index_t g) { return static_cast<local_index_t>(g - first * n); };
  for (global_index_t i = first; i < last; ++i)
    for (global_index_t j = 0; j + 1 < n; ++j) {
      const global_index_t a = i * n + j, b = a + 1, c = a + n, d = c + 1;
      for (global_index_t v : {a, b, d, a, d, c}) s.cells.push_back(at(v));
    }
  return s;
}

// Cell c's element matrix: a P1 stiffness pattern, scaled per cell so that
// a value placed in the wrong entry shows in the product.
std::array<double, corners * corners> element_matrix(std::size_t c) {
  const double s = 1.0 + 0.125 * static_cast<double>(c % 7);
  return {2 * s, -s, -s, -s, 2 * s, -s, -s, -s, 2 * s};
}

// Tpetra's FECrsMatrix over the same maps, with each cell's rows and
// columns as local indices (found once, as Tpetra's FE examples do).
struct TpetraAssembly {
  Teuchos::RCP<Tpetra::FECrsMatrix<double, LO, GO, Node>> matrix;
  std::vector<LO> rows, columns;  // per cell, corners each

  TpetraAssembly(const TpetraLayout& nodes, const Strip& s) {
    using Graph = Tpetra::FECrsGraph<LO, GO, Node>;
    // FECrsGraph wants the owned rows first in its owned-plus-shared map.
    const auto owned = nodes.owned_map();
    std::vector<GO> owned_first;
    for (std::size_t i = 0; i < compat::local_num_elements(*owned); ++i)
      owned_first.push_back(owned->getGlobalElement(static_cast<LO>(i)));
    for (const global_index_t g : s.held)
      if (!owned->isNodeGlobalElement(static_cast<GO>(g))) owned_first.push_back(static_cast<GO>(g));
    const auto overlap = Teuchos::rcp(new Map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(),
                                              Teuchos::ArrayView<const GO>(owned_first), 0, owned->getComm()));
    const auto gid = [&](local_index_t position) { return static_cast<GO>(s.held[static_cast<std::size_t>(position)]); };
    auto graph = Teuchos::rcp(new Graph(owned, overlap, 9));  // at most 7 neighbours in this mesh
    graph->beginAssembly();
    for (std::size_t k = 0; k < s.cells.size(); k += corners) {
      GO gids[corners];
      for (int a = 0; a < corners; ++a) gids[a] = gid(s.cells[k + a]);
      for (int a = 0; a < corners; ++a) graph->insertGlobalIndices(gids[a], corners, gids);
    }
    graph->endAssembly();
    matrix = Teuchos::rcp(new Tpetra::FECrsMatrix<double, LO, GO, Node>(graph));
    const auto column_map = graph->getColMap();
    for (const local_index_t p : s.cells) {
      rows.push_back(overlap->getLocalElement(gid(p)));
      columns.push_back(column_map->getLocalElement(gid(p)));
    }
  }

  // The fast path of Tpetra's FE examples: the local (Kokkos) matrix's
  // sumIntoValues per cell row. (The matrix's own sumIntoLocalValues costs
  // about 100 ns a call more: 0.63 s against 0.03 s for the 3e6 row calls
  // per process at 1e6 nodes on 2 processes.)
  void assemble() {
    matrix->beginAssembly();
    matrix->setAllToScalar(0.0);
    {
      const auto local = matrix->getLocalMatrixHost();
      for (std::size_t k = 0; k < rows.size(); k += corners) {
        auto e = element_matrix(k / corners);
        for (int a = 0; a < corners; ++a) local.sumIntoValues(rows[k + a], &columns[k], corners, &e[a * corners]);
      }
    }
    matrix->endAssembly();
  }
};

// max |A x - B x| / max |A x| for x = sin of the global index.
double product_difference(const Tpetra::Operator<double, LO, GO, Node>& a,
                          const Tpetra::Operator<double, LO, GO, Node>& b) {
  using Vector = Tpetra::Vector<double, LO, GO, Node>;
  Vector x(a.getDomainMap()), ya(a.getRangeMap()), yb(b.getRangeMap());
  {
    auto v = x.getLocalViewHost(Tpetra::Access::OverwriteAll);
    for (std::size_t i = 0; i < v.extent(0); ++i)
      v(i, 0) = std::sin(static_cast<double>(a.getDomainMap()->getGlobalElement(static_cast<LO>(i))));
  }
  a.apply(x, ya);
  b.apply(x, yb);
  const double scale = ya.normInf();
  yb.update(-1.0, ya, 1.0);
  return yb.normInf() / std::max(scale, 1e-300);
}

}  // namespace

void bench_fe_assembly(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, bool quick) {
  const int P = comm->getSize(), r = comm->getRank();
  for (const global_index_t n : {global_index_t{quick ? 101 : 1001}}) {
    const Strip s = strip(n, P, r);
    const auto nodes = TpetraLayout::create(std::vector<Dim>{Dim::unstructured(n * n, P, r, s.held, false)}, comm);
    const auto graph = FEGraph::create(nodes, s.cells, corners);
    FEMatrix ours(graph);
    const auto assemble_ours = [&] {
      ours.begin_assembly();
      for (std::size_t c = 0; c < graph->num_cells(); ++c) {
        const auto e = element_matrix(c);
        ours.add_element(c, {e.data(), corners, corners});
      }
      ours.end_assembly();
    };
    TpetraAssembly theirs(*nodes, s);
    const auto t = paired_median_seconds(raw, quick ? 3 : 9, assemble_ours, [&] { theirs.assemble(); });
    Row row{"FE matrix assembly, P1 triangles, nodes=" + std::to_string(n * n) + " np=" + std::to_string(P), t.ours,
            "Tpetra FECrsMatrix (local indices found once; beginAssembly, local matrix sumIntoValues, endAssembly)",
            t.baseline, 1.0};
    const double difference = product_difference(*ours.matrix(), *theirs.matrix);
    row.same_result = bench::all_ranks(difference <= 1e-12, raw);
    row.extra["relative_product_difference"] = difference;
    row.extra["cells_per_rank"] = graph->num_cells();
    report.add(row);

    // The structure both assemble into, built from the same cells: FEGraph
    // (with its matrix) against FECrsGraph (owned-first map, insertGlobalIndices
    // per cell row, endAssembly) with its FECrsMatrix.
    const auto s_ours = [&] { FEMatrix m(FEGraph::create(nodes, s.cells, corners)); };
    const auto s_theirs = [&] { TpetraAssembly a(*nodes, s); };
    const auto u = paired_median_seconds(raw, quick ? 3 : 7, s_ours, s_theirs);
    Row setup{"FE matrix structure, P1 triangles, nodes=" + std::to_string(n * n) + " np=" + std::to_string(P), u.ours,
              "Tpetra FECrsGraph from the cells (insertGlobalIndices, endAssembly) and its FECrsMatrix", u.baseline,
              1.0};
    setup.same_result = bench::all_ranks(
        ours.matrix()->getGlobalNumEntries() == theirs.matrix->getGlobalNumEntries() && difference <= 1e-12, raw);
    setup.extra["global_entries"] = ours.matrix()->getGlobalNumEntries();
    report.add(setup);
  }
}

}  // namespace dapetra::bench
