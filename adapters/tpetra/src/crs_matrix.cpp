#include "dapetra/tpetra/crs_matrix.hpp"

#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Map.hpp>
#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dapetra/mpi/agree.hpp"
#include "dapetra/tpetra/compat.hpp"

namespace dapetra::tpetra {
namespace {

using LocalMatrix = CrsMatrix::local_matrix_device_type;
using RowMap = CrsMatrix::local_graph_device_type::row_map_type::non_const_type;
using Entries = CrsMatrix::local_graph_device_type::entries_type::non_const_type;
using Values = LocalMatrix::values_type;

// The offsets' own rules: num_rows + 1 of them, from 0, never decreasing, to the entry count.
template <class View>
void check_offsets(const View& csr, std::size_t owned, int rank, std::vector<Problem>& out) {
  if (csr.num_rows != owned)
    out.push_back(Problem::of(rank, "rows", std::to_string(csr.num_rows), "one CSR row per owned element of the layout",
                              std::to_string(csr.num_rows) + " rows for " + std::to_string(owned) + " owned elements"));
  if (csr.num_entries > 0 && (csr.columns == nullptr || csr.values == nullptr))
    out.push_back(Problem::of(rank, "columns", "null", "columns and values hold num_entries each", "an array is missing"));
  if (csr.row_offsets == nullptr) {
    if (csr.num_rows > 0 || csr.num_entries > 0)
      out.push_back(Problem::of(rank, "row_offsets", "null", "num_rows + 1 offsets", "the offsets are missing"));
    return;
  }
  if (csr.row_offsets[0] != 0)
    out.push_back(Problem::of(rank, "row_offsets", std::to_string(csr.row_offsets[0]), "the first offset is 0",
                              "row 0 does not start at entry 0"));
  for (std::size_t r = 0; r < csr.num_rows; ++r)
    if (csr.row_offsets[r + 1] < csr.row_offsets[r]) {
      out.push_back(Problem::of(rank, "row_offsets", std::to_string(csr.row_offsets[r + 1]), "offsets never decrease",
                                "row " + std::to_string(r) + " ends before it starts"));
      break;
    }
  const global_index_t last = csr.row_offsets[csr.num_rows];
  if (last != static_cast<global_index_t>(csr.num_entries))
    out.push_back(Problem::of(rank, "row_offsets", std::to_string(last), "the last offset is the entry count",
                              "the rows end at entry " + std::to_string(last) + " of " + std::to_string(csr.num_entries)));
}

// The rows where first_row says they are.
template <class View>
void check_first_row(const View& csr, const Map& owned, GO base, int rank, std::vector<Problem>& out) {
  if (csr.first_row < 0 || csr.num_rows != compat::local_num_elements(owned)) return;
  for (std::size_t r = 0; r < csr.num_rows; ++r)
    if (owned.getGlobalElement(static_cast<LO>(r)) - base != csr.first_row + static_cast<global_index_t>(r)) {
      out.push_back(Problem::of(rank, "first_row", std::to_string(csr.first_row),
                                "row r is the layout's r-th owned element",
                                "row " + std::to_string(r) + " is global row " +
                                    std::to_string(csr.first_row + static_cast<global_index_t>(r)) +
                                    ", the layout's owned element there is " +
                                    std::to_string(owned.getGlobalElement(static_cast<LO>(r)) - base)));
      return;
    }
}

// The matrix's local arrays: one pass over the entries finds each one's
// local column (an owned column is its place in the owned map; any other
// goes after them, ascending by global index: the column map's order),
// copies its value, and notes whether the rows are already strictly
// ascending, as Tpetra needs (rows holding other processes' columns are
// judged once those have their places). Columns outside [0, size) are
// counted, not placed: the caller reports them before using anything.
struct LocalRows {
  RowMap row_map;
  Entries entries;
  Values values;
  std::vector<GO> others;  // the column map's part after the owned elements
  bool ascending = true;
  std::size_t outside = 0;
  global_index_t first_outside = 0;
};

// Where each global column sits: arithmetic for a contiguous owned map,
// Tpetra's lookup otherwise; -1 when another process owns it.
struct OwnedColumns {
  const Map& owned;
  bool contiguous;
  GO first;
  LO n;
  explicit OwnedColumns(const Map& m)
      : owned(m), contiguous(m.isContiguous()), first(m.getMinGlobalIndex()), n(static_cast<LO>(compat::local_num_elements(m))) {}
  LO operator()(GO g) const {
    if (contiguous) return g >= first && g - first < n ? static_cast<LO>(g - first) : -1;
    const LO c = owned.getLocalElement(g);
    return c == Teuchos::OrdinalTraits<LO>::invalid() ? -1 : c;
  }
};

LocalRows local_rows(const CsrView& csr, const Map& owned, global_index_t size, GO base) {
  const OwnedColumns owned_column(owned);
  const LO n = owned_column.n;
  LocalRows out;
  out.row_map = RowMap(Kokkos::view_alloc(Kokkos::WithoutInitializing, "row_map"), csr.num_rows + 1);
  out.entries = Entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "columns"), csr.num_entries);
  out.values = Values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "values"), csr.num_entries);
  out.row_map(0) = 0;
  std::unordered_map<GO, LO> first_seen;  // another process's column -> n + its place in `others`
  std::vector<std::size_t> rows_with_others;
  for (std::size_t r = 0; r < csr.num_rows; ++r) {
    const std::size_t b = static_cast<std::size_t>(csr.row_offsets[r]), e = static_cast<std::size_t>(csr.row_offsets[r + 1]);
    out.row_map(r + 1) = e;
    bool others_here = false;
    for (std::size_t k = b; k < e; ++k) {
      const global_index_t g = csr.columns[k];
      out.values(k) = csr.values[k];
      if (g < 0 || g >= size) {
        if (out.outside++ == 0) out.first_outside = g;
        out.entries(k) = 0;
        continue;
      }
      LO c = owned_column(static_cast<GO>(g) + base);
      if (c < 0) {
        const auto [at, added] = first_seen.emplace(static_cast<GO>(g) + base, n + static_cast<LO>(out.others.size()));
        if (added) out.others.push_back(at->first);
        c = at->second;
        others_here = true;
      } else if (k > b && out.entries(k - 1) >= c) {  // (others' columns all come after the owned)
        out.ascending = false;
      }
      out.entries(k) = c;
    }
    if (others_here) rows_with_others.push_back(r);
  }
  if (out.others.empty()) return out;
  // The other processes' columns in ascending order; only rows holding them change.
  std::vector<LO> order(out.others.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<LO>(i);
  std::sort(order.begin(), order.end(), [&](LO x, LO y) { return out.others[static_cast<std::size_t>(x)] < out.others[static_cast<std::size_t>(y)]; });
  std::vector<LO> place(order.size());
  std::vector<GO> sorted(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    place[static_cast<std::size_t>(order[i])] = n + static_cast<LO>(i);
    sorted[i] = out.others[static_cast<std::size_t>(order[i])];
  }
  out.others = std::move(sorted);
  for (std::size_t r : rows_with_others) {
    const std::size_t b = out.row_map(r), e = out.row_map(r + 1);
    for (std::size_t k = b; k < e; ++k) {
      if (out.entries(k) >= n) out.entries(k) = place[static_cast<std::size_t>(out.entries(k) - n)];
      if (k > b && out.entries(k - 1) >= out.entries(k)) out.ascending = false;
    }
  }
  return out;
}

// Tpetra wants each row's columns strictly ascending: rows that are not are
// sorted and their repeats summed, everything moving down in place.
std::size_t sort_and_merge_rows(RowMap& row_map, Entries& entries, Values& values, std::size_t num_rows) {
  std::size_t out = 0;
  std::vector<std::pair<LO, double>> row;
  for (std::size_t r = 0; r < num_rows; ++r) {
    const std::size_t b = row_map(r), e = row_map(r + 1);
    row_map(r) = out;
    bool ascending = true;
    for (std::size_t k = b + 1; k < e && ascending; ++k) ascending = entries(k - 1) < entries(k);
    if (ascending) {
      for (std::size_t k = b; k < e; ++k, ++out) {
        entries(out) = entries(k);
        values(out) = values(k);
      }
      continue;
    }
    row.clear();
    for (std::size_t k = b; k < e; ++k) row.emplace_back(entries(k), values(k));
    std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t i = 0; i < row.size(); ++out) {
      entries(out) = row[i].first;
      double sum = 0;
      for (const LO c = row[i].first; i < row.size() && row[i].first == c; ++i) sum += row[i].second;
      values(out) = sum;
    }
  }
  row_map(num_rows) = out;
  return out;
}

// Local columns' own rules: the owned ones are the owned count, each ghost
// a global index another process owns, named once, and every entry's
// column one of the two.
void check_local_columns(const LocalCsrView& csr, const Map& owned, global_index_t size, GO base, int rank,
                         std::vector<Problem>& out) {
  const OwnedColumns owned_column(owned);
  if (csr.owned_columns != static_cast<std::size_t>(owned_column.n))
    out.push_back(Problem::of(rank, "owned_columns", std::to_string(csr.owned_columns),
                              "the owned columns are the layout's owned elements",
                              std::to_string(owned_column.n) + " owned elements here"));
  if (csr.num_ghost_columns > 0 && csr.ghost_columns == nullptr)
    out.push_back(Problem::of(rank, "ghost_columns", "null", "num_ghost_columns global indices", "the list is missing"));
  if (!out.empty()) return;
  std::vector<global_index_t> ghosts(csr.ghost_columns, csr.ghost_columns + csr.num_ghost_columns);
  for (const global_index_t g : ghosts)
    if (g < 0 || g >= size || owned_column(static_cast<GO>(g) + base) >= 0) {
      out.push_back(Problem::of(rank, "ghost_columns", std::to_string(g),
                                "a ghost column is a global index (0 <= c < " + std::to_string(size) + ") another process owns",
                                g < 0 || g >= size ? "outside the layout" : "this process owns it"));
      return;
    }
  std::sort(ghosts.begin(), ghosts.end());
  if (const auto twice = std::adjacent_find(ghosts.begin(), ghosts.end()); twice != ghosts.end())
    out.push_back(Problem::of(rank, "ghost_columns", std::to_string(*twice), "each ghost column is named once", "named twice"));
  const std::size_t columns = csr.owned_columns + csr.num_ghost_columns;
  for (std::size_t k = 0; k < csr.num_entries; ++k)
    if (csr.columns[k] < 0 || static_cast<std::size_t>(csr.columns[k]) >= columns) {
      out.push_back(Problem::of(rank, "columns", std::to_string(csr.columns[k]),
                                "every local column is below owned_columns + num_ghost_columns (" + std::to_string(columns) + ")",
                                "entry " + std::to_string(k) + " names no column"));
      return;
    }
}

// The local rows as Tpetra's arrays: a straight copy, noting whether every
// row is already strictly ascending.
LocalRows local_rows(const LocalCsrView& csr) {
  LocalRows out;
  out.row_map = RowMap(Kokkos::view_alloc(Kokkos::WithoutInitializing, "row_map"), csr.num_rows + 1);
  out.entries = Entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "columns"), csr.num_entries);
  out.values = Values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "values"), csr.num_entries);
  std::copy(csr.values, csr.values + csr.num_entries, out.values.data());
  out.row_map(0) = 0;
  for (std::size_t r = 0; r < csr.num_rows; ++r) {
    const std::size_t b = static_cast<std::size_t>(csr.row_offsets[r]), e = static_cast<std::size_t>(csr.row_offsets[r + 1]);
    out.row_map(r + 1) = e;
    for (std::size_t k = b; k < e; ++k) {
      out.entries(k) = csr.columns[k];
      if (k > b && csr.columns[k - 1] >= csr.columns[k]) out.ascending = false;
    }
  }
  out.others.assign(csr.ghost_columns, csr.ghost_columns + csr.num_ghost_columns);
  return out;
}

// Tpetra's matrix on the owned rows from its local arrays, sorted first
// where a row is not; its column map is the domain's owned elements then
// `others`.
Teuchos::RCP<CrsMatrix> fill_complete(const Teuchos::RCP<const Map>& owned, const Teuchos::RCP<const Map>& domain,
                                      LocalRows local, std::size_t num_rows) {
  if (!local.ascending) {
    const std::size_t kept = sort_and_merge_rows(local.row_map, local.entries, local.values, num_rows);
    if (kept < local.entries.extent(0)) {  // repeats were summed
      Kokkos::resize(local.entries, kept);
      Kokkos::resize(local.values, kept);
    }
  }
  const GO base = domain->getIndexBase();
  const auto owned_gids = compat::local_element_list(*domain);
  std::vector<GO> column_gids(owned_gids.begin(), owned_gids.end());
  column_gids.reserve(column_gids.size() + local.others.size());
  for (const GO g : local.others) column_gids.push_back(g);
  auto column_map = Teuchos::rcp(new Map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(),
                                         Teuchos::ArrayView<const GO>(column_gids), base, owned->getComm()));
  auto matrix = Teuchos::rcp(new CrsMatrix(owned, column_map, local.row_map, local.entries, local.values));
  matrix->expertStaticFillComplete(domain, owned);  // collective: the column map's Import
  return matrix;
}

// The row (or column) layout is 1-D, one row per element.
void check_one_dimensional(const TpetraLayout& rows, int rank, std::vector<Problem>& out) {
  if (rows.distribution()->dim_data().size() != 1 || rows.column_axis() >= 0)
    out.push_back(Problem::of(rank, "dim_data", std::to_string(rows.distribution()->dim_data().size()) + " axes",
                              "the row layout is 1-D, one row per element", "matrices take a 1-D layout"));
}

// Whether two layouts' communicators are the same group in the same order
// (local: MPI_Comm_compare).
bool same_communicator(const TpetraLayout& a, const TpetraLayout& b) {
  int result = MPI_UNEQUAL;
  MPI_Comm_compare(a.distribution()->comm(), b.distribution()->comm(), &result);
  return result == MPI_IDENT || result == MPI_CONGRUENT;
}

// The checks both forms share: a 1-D row layout, sound offsets (then the
// rows can be read), the rows where first_row says.
struct SharedChecks {
  std::vector<Problem> problems;
  bool readable = false;
};
template <class View>
SharedChecks shared_checks(const TpetraLayout& rows, const View& csr) {
  SharedChecks out;
  const int rank = rows.distribution()->rank();
  const Map& owned = *rows.owned_map();
  check_one_dimensional(rows, rank, out.problems);
  if (out.problems.empty()) check_offsets(csr, compat::local_num_elements(owned), rank, out.problems);
  out.readable = out.problems.empty();
  if (out.readable) check_first_row(csr, owned, owned.getIndexBase(), rank, out.problems);
  return out;
}

}  // namespace

Teuchos::RCP<CrsMatrix> crs_matrix_copy(const TpetraLayout& rows, const LocalCsrView& csr) {
  const auto owned = rows.owned_map();
  const GO base = owned->getIndexBase();
  SharedChecks checks = shared_checks(rows, csr);
  if (checks.readable)
    check_local_columns(csr, *owned, rows.distribution()->global_shape()[0], base, rows.distribution()->rank(), checks.problems);
  mpi::agree(checks.problems, rows.distribution()->comm());
  LocalRows local = local_rows(csr);
  for (GO& g : local.others) g += base;
  return fill_complete(owned, owned, std::move(local), csr.num_rows);
}

Teuchos::RCP<CrsMatrix> crs_matrix_copy(const TpetraLayout& rows, const CsrView& csr) {
  return crs_matrix_copy(rows, rows, csr);
}

Teuchos::RCP<CrsMatrix> crs_matrix_copy(const TpetraLayout& rows, const TpetraLayout& columns, const CsrView& csr) {
  SharedChecks checks = shared_checks(rows, csr);
  const int rank = rows.distribution()->rank();
  if (&columns != &rows) {
    check_one_dimensional(columns, rank, checks.problems);
    if (!same_communicator(rows, columns))  // (local: agree() below tells the others)
      checks.problems.push_back(Problem::of(rank, "columns", "another communicator",
                                            "the columns' layout is over the rows' communicator", "it is not"));
    checks.readable = checks.readable && checks.problems.empty();
  }
  LocalRows local;
  const auto domain = columns.owned_map();
  if (checks.readable) {
    const global_index_t size = columns.distribution()->global_shape()[0];
    local = local_rows(csr, *domain, size, domain->getIndexBase());
    if (local.outside)
      checks.problems.push_back(Problem::of(rank, "columns", std::to_string(local.first_outside),
                                            "every column is a global index of the columns' layout (0 <= c < " +
                                                std::to_string(size) + ")",
                                            std::to_string(local.outside) + " columns outside the layout"));
  }
  mpi::agree(checks.problems, rows.distribution()->comm());
  return fill_complete(rows.owned_map(), domain, std::move(local), csr.num_rows);
}

}  // namespace dapetra::tpetra
