#include "dapetra/tpetra/crs_matrix.hpp"

#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Map.hpp>
#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dapetra/mpi/agree.hpp"

namespace dapetra::tpetra {
namespace {

using LocalMatrix = CrsMatrix::local_matrix_device_type;
using RowMap = CrsMatrix::local_graph_device_type::row_map_type::non_const_type;
using Entries = CrsMatrix::local_graph_device_type::entries_type::non_const_type;
using Values = LocalMatrix::values_type;

Problem problem(int rank, const std::string& key, const std::string& value, const std::string& rule,
                const std::string& message) {
  return Problem{rank, -1, key, value, rule, message};
}

// The offsets' own rules: num_rows + 1 of them, from 0, never decreasing, to the entry count.
void check_offsets(const CsrView& csr, std::size_t owned, int rank, std::vector<Problem>& out) {
  if (csr.num_rows != owned)
    out.push_back(problem(rank, "rows", std::to_string(csr.num_rows), "one CSR row per owned element of the layout",
                          std::to_string(csr.num_rows) + " rows for " + std::to_string(owned) + " owned elements"));
  if (csr.num_entries > 0 && (csr.columns == nullptr || csr.values == nullptr))
    out.push_back(problem(rank, "columns", "null", "columns and values hold num_entries each", "an array is missing"));
  if (csr.row_offsets == nullptr) {
    if (csr.num_rows > 0 || csr.num_entries > 0)
      out.push_back(problem(rank, "row_offsets", "null", "num_rows + 1 offsets", "the offsets are missing"));
    return;
  }
  if (csr.row_offsets[0] != 0)
    out.push_back(problem(rank, "row_offsets", std::to_string(csr.row_offsets[0]), "the first offset is 0",
                          "row 0 does not start at entry 0"));
  for (std::size_t r = 0; r < csr.num_rows; ++r)
    if (csr.row_offsets[r + 1] < csr.row_offsets[r]) {
      out.push_back(problem(rank, "row_offsets", std::to_string(csr.row_offsets[r + 1]), "offsets never decrease",
                            "row " + std::to_string(r) + " ends before it starts"));
      break;
    }
  const global_index_t last = csr.row_offsets[csr.num_rows];
  if (last != static_cast<global_index_t>(csr.num_entries))
    out.push_back(problem(rank, "row_offsets", std::to_string(last), "the last offset is the entry count",
                          "the rows end at entry " + std::to_string(last) + " of " + std::to_string(csr.num_entries)));
}

// Every column inside the layout; the rows where first_row says they are.
void check_indices(const CsrView& csr, const Map& owned, global_index_t size, GO base, int rank,
                   std::vector<Problem>& out) {
  std::size_t bad = 0;
  global_index_t first_bad = 0;
  for (std::size_t k = 0; k < csr.num_entries && csr.columns; ++k)
    if (csr.columns[k] < 0 || csr.columns[k] >= size) {
      if (bad++ == 0) first_bad = csr.columns[k];
    }
  if (bad)
    out.push_back(problem(rank, "columns", std::to_string(first_bad),
                          "every column is a global index of the layout (0 <= c < " + std::to_string(size) + ")",
                          std::to_string(bad) + " columns outside the layout"));
  if (csr.first_row < 0 || csr.num_rows != owned.getNodeNumElements()) return;
  for (std::size_t r = 0; r < csr.num_rows; ++r)
    if (owned.getGlobalElement(static_cast<LO>(r)) - base != csr.first_row + static_cast<global_index_t>(r)) {
      out.push_back(problem(rank, "first_row", std::to_string(csr.first_row),
                            "row r is the layout's r-th owned element",
                            "row " + std::to_string(r) + " is global row " +
                                std::to_string(csr.first_row + static_cast<global_index_t>(r)) +
                                ", the layout's owned element there is " +
                                std::to_string(owned.getGlobalElement(static_cast<LO>(r)) - base)));
      return;
    }
}

// Local columns: an owned column is its place in the owned map; any other
// goes after them, ascending by global index (the column map's order).
struct LocalColumns {
  Entries entries;
  std::vector<GO> others;  // the column map's part after the owned elements
};

LocalColumns local_columns(const CsrView& csr, const Map& owned, GO base) {
  const LO n = static_cast<LO>(owned.getNodeNumElements());
  LocalColumns out{Entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "columns"), csr.num_entries), {}};
  std::unordered_map<GO, LO> first_seen;  // another process's column -> n + its place in `others`
  for (std::size_t k = 0; k < csr.num_entries; ++k) {
    const GO g = static_cast<GO>(csr.columns[k]) + base;
    LO c = owned.getLocalElement(g);
    if (c == Teuchos::OrdinalTraits<LO>::invalid()) {
      const auto [at, added] = first_seen.emplace(g, n + static_cast<LO>(out.others.size()));
      if (added) out.others.push_back(g);
      c = at->second;
    }
    out.entries(k) = c;
  }
  if (out.others.empty()) return out;
  std::vector<LO> order(out.others.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<LO>(i);
  std::sort(order.begin(), order.end(), [&](LO a, LO b) { return out.others[a] < out.others[b]; });
  std::vector<LO> sorted_place(order.size());
  std::vector<GO> sorted(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    sorted_place[static_cast<std::size_t>(order[i])] = n + static_cast<LO>(i);
    sorted[i] = out.others[static_cast<std::size_t>(order[i])];
  }
  for (std::size_t k = 0; k < csr.num_entries; ++k)
    if (out.entries(k) >= n) out.entries(k) = sorted_place[static_cast<std::size_t>(out.entries(k) - n)];
  out.others = std::move(sorted);
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

}  // namespace

Teuchos::RCP<CrsMatrix> crs_matrix_copy(const TpetraLayout& rows, const CsrView& csr) {
  const auto& layout = *rows.distribution();
  const int rank = layout.rank();
  const auto owned = rows.owned_map();
  std::vector<Problem> problems;
  if (rows.dim_data().size() != 1 || rows.column_axis() >= 0)
    problems.push_back(problem(rank, "dim_data", std::to_string(rows.dim_data().size()) + " axes",
                               "the row layout is 1-D, one row per element", "matrices take a 1-D layout"));
  else {
    check_offsets(csr, owned->getNodeNumElements(), rank, problems);
    check_indices(csr, *owned, layout.global_shape()[0], owned->getIndexBase(), rank, problems);
  }
  mpi::agree(problems, layout.comm());

  LocalColumns columns = local_columns(csr, *owned, owned->getIndexBase());
  RowMap row_map(Kokkos::view_alloc(Kokkos::WithoutInitializing, "row_map"), csr.num_rows + 1);
  for (std::size_t r = 0; r <= csr.num_rows; ++r) row_map(r) = static_cast<std::size_t>(csr.row_offsets ? csr.row_offsets[r] : 0);
  Values values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "values"), csr.num_entries);
  std::copy(csr.values, csr.values + csr.num_entries, values.data());
  const std::size_t kept = sort_and_merge_rows(row_map, columns.entries, values, csr.num_rows);
  if (kept < csr.num_entries) {  // repeats were summed
    Kokkos::resize(columns.entries, kept);
    Kokkos::resize(values, kept);
  }

  std::vector<GO> column_gids(owned->getNodeElementList().begin(), owned->getNodeElementList().end());
  column_gids.insert(column_gids.end(), columns.others.begin(), columns.others.end());
  auto column_map = Teuchos::rcp(new Map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(),
                                         Teuchos::ArrayView<const GO>(column_gids), owned->getIndexBase(), owned->getComm()));
  auto matrix = Teuchos::rcp(new CrsMatrix(owned, column_map, row_map, columns.entries, values));
  matrix->expertStaticFillComplete(owned, owned);  // collective: the column map's Import
  return matrix;
}

}  // namespace dapetra::tpetra
