// crs_matrix_copy (dapetra/tpetra/crs_matrix.hpp) against the rows it was
// given: random CSR rows (columns anywhere, unsorted, repeated) on random
// 'u' layouts whose owners are drawn at random, applied to vectors and
// compared with the product each process computes from its own rows by hand.
// Every value is a small integer, so every sum is exact in any order.
#include <gtest/gtest.h>

#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Map.hpp>
#include <Tpetra_Vector.hpp>
#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "../common/seed.hpp"
#include "dapetra/tpetra/compat.hpp"
#include "dapetra/tpetra/tpetra.hpp"
#include "tpetra_test_util.hpp"

using namespace dapetra;
using namespace dapetra::tpetra;
using dapetra::testing::expect_every_rank_throws;
using dapetra::testing::world;

namespace {

using Vector = Tpetra::Vector<double, LO, GO, Node>;

// Row g of the drawn matrix: a function of (seed, g) only, so every process
// can name any row and the reference needs no communication.
std::vector<std::pair<global_index_t, double>> row_entries(std::uint64_t seed, global_index_t g, global_index_t n) {
  std::mt19937_64 rng(seed * 1000003u + static_cast<std::uint64_t>(g));
  const int count = std::uniform_int_distribution<int>(0, 8)(rng);
  std::vector<std::pair<global_index_t, double>> out;
  for (int k = 0; k < count; ++k) {
    // Half the columns near the diagonal, some repeated: as FE rows are.
    const global_index_t c = k % 2 ? std::uniform_int_distribution<global_index_t>(0, n - 1)(rng)
                                   : std::clamp<global_index_t>(g + k / 2 - 1, 0, n - 1);
    out.emplace_back(c, static_cast<double>(std::uniform_int_distribution<int>(-5, 5)(rng)));
  }
  return out;
}

// A 'u' layout of n indices: each index's owner drawn at random, each process
// holding its owned indices (shuffled) and a few others' as ghosts.
std::shared_ptr<const TpetraLayout> random_layout(std::mt19937_64& rng, global_index_t n, GO index_base) {
  const auto comm = world();
  const int P = comm->getSize(), me = comm->getRank();
  auto owner = std::make_shared<std::vector<int>>();
  for (global_index_t g = 0; g < n; ++g) owner->push_back(std::uniform_int_distribution<int>(0, P - 1)(rng));
  std::vector<std::vector<global_index_t>> held(static_cast<std::size_t>(P));
  for (global_index_t g = 0; g < n; ++g) held[static_cast<std::size_t>((*owner)[static_cast<std::size_t>(g)])].push_back(g);
  for (int p = 0; p < P; ++p) {
    std::shuffle(held[static_cast<std::size_t>(p)].begin(), held[static_cast<std::size_t>(p)].end(), rng);
    for (int k = 0; k < 3; ++k) {
      const global_index_t g = std::uniform_int_distribution<global_index_t>(0, n - 1)(rng);
      if ((*owner)[static_cast<std::size_t>(g)] != p) held[static_cast<std::size_t>(p)].push_back(g);
    }
    auto& h = held[static_cast<std::size_t>(p)];
    std::vector<global_index_t> unique;
    for (global_index_t g : h)
      if (std::find(unique.begin(), unique.end(), g) == unique.end()) unique.push_back(g);
    h = unique;
  }
  TpetraLayoutOptions options;
  options.index_base = index_base;
  options.distribution.ownership = mpi::Ownership::by_rule([owner](global_index_t g, const std::vector<int>&) { return (*owner)[static_cast<std::size_t>(g)]; });
  return TpetraLayout::create({Dim::unstructured(n, P, me, held[static_cast<std::size_t>(me)], false)}, comm, options);
}

// This process's owned rows in the owned map's order, as CSR; columns in
// [0, columns) (by default the layout's size: a square matrix).
CsrRows owned_rows(const TpetraLayout& layout, std::uint64_t seed, global_index_t columns = -1) {
  const Map& owned = *layout.owned_map();
  const global_index_t n = columns >= 0 ? columns : static_cast<global_index_t>(owned.getGlobalNumElements());
  CsrRows csr;
  for (std::size_t r = 0; r < compat::local_num_elements(owned); ++r) {
    for (const auto& [c, v] : row_entries(seed, owned.getGlobalElement(static_cast<LO>(r)) - owned.getIndexBase(), n)) {
      csr.columns.push_back(c);
      csr.values.push_back(v);
    }
    csr.row_offsets.push_back(static_cast<global_index_t>(csr.columns.size()));
  }
  return csr;
}

// y = A x through Tpetra, against each owned row's sum by hand, for x(g) = f(g).
void expect_products(const CrsMatrix& a, std::uint64_t seed, const std::function<double(global_index_t)>& f) {
  const Map& rows = *a.getRowMap();
  const GO base = rows.getIndexBase();
  const global_index_t n = static_cast<global_index_t>(a.getDomainMap()->getGlobalNumElements());
  Vector x(a.getDomainMap()), y(a.getRangeMap());
  for (std::size_t i = 0; i < compat::local_num_elements(*a.getDomainMap()); ++i)
    x.replaceLocalValue(static_cast<LO>(i), f(a.getDomainMap()->getGlobalElement(static_cast<LO>(i)) - base));
  a.apply(x, y);
  const auto got = y.getData();
  for (std::size_t r = 0; r < compat::local_num_elements(rows); ++r) {
    const global_index_t g = rows.getGlobalElement(static_cast<LO>(r)) - base;
    double want = 0;
    for (const auto& [c, v] : row_entries(seed, g, n)) want += v * f(c);
    EXPECT_EQ(got[static_cast<Teuchos_Ordinal>(r)], want) << "row " << g;
    if (got[static_cast<Teuchos_Ordinal>(r)] != want) break;
  }
}

// The same rows with local columns: owned columns at their place in the
// owned map, the others numbered after them in the order they first appear
// (not ascending, so the ghost list is taken as given and rows get sorted).
LocalCsrRows with_local_columns(const CsrRows& csr, const Map& owned) {
  LocalCsrRows out;
  out.row_offsets = csr.row_offsets;
  out.first_row = csr.first_row;
  out.owned_columns = compat::local_num_elements(owned);
  std::map<global_index_t, local_index_t> ghost;
  for (const global_index_t g : csr.columns) {
    const LO c = owned.getLocalElement(static_cast<GO>(g) + owned.getIndexBase());
    if (c != Teuchos::OrdinalTraits<LO>::invalid()) {
      out.columns.push_back(c);
      continue;
    }
    const auto [at, added] = ghost.emplace(g, static_cast<local_index_t>(out.owned_columns + ghost.size()));
    if (added) out.ghost_columns.push_back(g);
    out.columns.push_back(at->second);
  }
  out.values = csr.values;
  return out;
}

// Distinct (row, column) pairs over every process's rows.
std::size_t distinct_entries(const CsrRows& csr, const Teuchos::Comm<int>& comm) {
  std::size_t mine = 0;
  for (std::size_t r = 0; r + 1 < csr.row_offsets.size(); ++r)
    mine += std::set<global_index_t>(csr.columns.begin() + csr.row_offsets[r], csr.columns.begin() + csr.row_offsets[r + 1]).size();
  std::size_t all = 0;
  Teuchos::reduceAll(comm, Teuchos::REDUCE_SUM, mine, Teuchos::outArg(all));
  return all;
}

}  // namespace

TEST(CrsMatrixCopy, AppliesAsTheRowsItWasGiven) {
  const auto comm = world();
  const auto seed = dapetra::testing::test_seed(808);
  SCOPED_TRACE(seed.replay);
  std::mt19937_64 rng(seed.value);
  for (int trial = 0; trial < 30; ++trial) {
    const global_index_t n = std::uniform_int_distribution<global_index_t>(1, 60)(rng);
    const auto layout = random_layout(rng, n, trial % 3 == 2 ? 1 : 0);
    const std::uint64_t rows_seed = seed.value + static_cast<std::uint64_t>(trial);
    const CsrRows csr = owned_rows(*layout, rows_seed);
    const auto a = crs_matrix_copy(*layout, csr.view());
    EXPECT_TRUE(a->isFillComplete());
    EXPECT_TRUE(a->getRowMap()->isSameAs(*layout->owned_map()));
    EXPECT_EQ(a->getGlobalNumEntries(), distinct_entries(csr, *comm)) << "trial " << trial;
    expect_products(*a, rows_seed, [](global_index_t g) { return static_cast<double>(g + 1); });
    expect_products(*a, rows_seed, [](global_index_t g) { return static_cast<double>((g * g) % 7 - 3); });
    const auto b = crs_matrix_copy(*layout, with_local_columns(csr, *layout->owned_map()).view());
    EXPECT_EQ(b->getGlobalNumEntries(), distinct_entries(csr, *comm)) << "trial " << trial;
    expect_products(*b, rows_seed, [](global_index_t g) { return static_cast<double>(g + 1); });
    expect_products(*b, rows_seed, [](global_index_t g) { return static_cast<double>((g * g) % 7 - 3); });
  }
}

// A block between two fields: rows on one random layout, columns on another
// of another size.
TEST(CrsMatrixCopy, ABlockBetweenTwoLayoutsAppliesAsItsRows) {
  const auto comm = world();
  const auto seed = dapetra::testing::test_seed(909);
  SCOPED_TRACE(seed.replay);
  std::mt19937_64 rng(seed.value);
  for (int trial = 0; trial < 20; ++trial) {
    const global_index_t n_rows = std::uniform_int_distribution<global_index_t>(1, 50)(rng);
    const global_index_t n_cols = std::uniform_int_distribution<global_index_t>(1, 50)(rng);
    const GO base = trial % 3 == 2 ? 1 : 0;
    const auto rows = random_layout(rng, n_rows, base);
    const auto columns = random_layout(rng, n_cols, base);
    const std::uint64_t rows_seed = seed.value + static_cast<std::uint64_t>(trial);
    const CsrRows csr = owned_rows(*rows, rows_seed, n_cols);
    const auto a = crs_matrix_copy(*rows, *columns, csr.view());
    EXPECT_TRUE(a->getRangeMap()->isSameAs(*rows->owned_map()));
    EXPECT_TRUE(a->getDomainMap()->isSameAs(*columns->owned_map()));
    EXPECT_EQ(a->getGlobalNumEntries(), distinct_entries(csr, *comm)) << "trial " << trial;
    expect_products(*a, rows_seed, [](global_index_t g) { return static_cast<double>(g + 1); });
    expect_products(*a, rows_seed, [](global_index_t g) { return static_cast<double>((g * g) % 7 - 3); });
  }
}

// A column past the columns' layout, on one process at a time: refused on every process.
TEST(Faults, CrsMatrixCopyOfABlockWithAColumnOutsideFailsEveryRank) {
  const auto comm = world();
  const int P = comm->getSize(), me = comm->getRank();
  const global_index_t n_cols = 5 * P + 1;
  const auto rows = TpetraLayout::create({Dim::block(3 * P, P, me, 3 * me, 3 * me + 3)}, comm);
  const auto columns = TpetraLayout::create({Dim::even_block(n_cols, P, me)}, comm);
  const CsrRows good = owned_rows(*rows, 11, n_cols);
  for (int bad = 0; bad < P; ++bad) {
    CsrRows csr = good;
    if (me == bad) {
      csr.columns.push_back(n_cols);
      csr.values.push_back(1.0);
      csr.row_offsets.back() += 1;
    }
    SCOPED_TRACE("rank " + std::to_string(bad));
    expect_every_rank_throws([&] { crs_matrix_copy(*rows, *columns, csr.view()); }, bad, "columns");
  }
}

// PETSc's form: rows are an ownership range, first_row says where it starts,
// and the conversion checks it.
TEST(CrsMatrixCopy, TakesRowsAnOwnershipRangeNames) {
  const auto comm = world();
  const int P = comm->getSize(), me = comm->getRank();
  const global_index_t n = 7 * P + 3, start = me * n / P, stop = (me + 1) * n / P;
  const auto layout = TpetraLayout::create({Dim::block(n, P, me, start, stop)}, comm);
  CsrRows csr = owned_rows(*layout, 5);
  csr.first_row = start;
  const auto a = crs_matrix_copy(*layout, csr.view());
  expect_products(*a, 5, [](global_index_t g) { return static_cast<double>(g % 5 + 1); });
}

// Each wrong input on one process at a time: every process throws the same
// error, naming that rank and the key at fault.
TEST(Faults, CrsMatrixCopyWrongRowsFailEveryRank) {
  const auto comm = world();
  const int P = comm->getSize(), me = comm->getRank();
  const global_index_t n = 4 * P, start = 4 * me;
  const auto layout = TpetraLayout::create({Dim::block(n, P, me, start, start + 4)}, comm);
  const CsrRows good = owned_rows(*layout, 9);
  // The faults, written once: what each does to the rows, and the key it names.
  const std::vector<std::pair<std::string, std::function<void(CsrRows&)>>> faults = {
      {"rows", [](CsrRows& c) { c.row_offsets.pop_back(); c.columns.resize(static_cast<std::size_t>(c.row_offsets.back())); c.values.resize(c.columns.size()); }},
      {"columns", [n](CsrRows& c) { c.columns.push_back(n); c.values.push_back(1.0); c.row_offsets.back() += 1; }},
      {"columns", [](CsrRows& c) { c.columns.push_back(-1); c.values.push_back(1.0); c.row_offsets.back() += 1; }},
      {"row_offsets", [](CsrRows& c) { c.columns.push_back(0); c.values.push_back(1.0); }},
      {"first_row", [start](CsrRows& c) { c.first_row = start + 1; }},
  };
  for (const auto& [key, spoil] : faults)
    for (int bad = 0; bad < P; ++bad) {
      CsrRows csr = good;
      csr.first_row = start;
      if (me == bad) spoil(csr);
      SCOPED_TRACE(key + " on rank " + std::to_string(bad));
      expect_every_rank_throws([&] { crs_matrix_copy(*layout, csr.view()); }, bad, key);
    }
}

// The local-column form's own faults, one process at a time, as above.
TEST(Faults, CrsMatrixCopyWrongLocalColumnsFailEveryRank) {
  const auto comm = world();
  const int P = comm->getSize(), me = comm->getRank();
  if (P == 1) GTEST_SKIP() << "one process has no ghost columns";
  const global_index_t n = 4 * P, start = 4 * me;
  const auto layout = TpetraLayout::create({Dim::block(n, P, me, start, start + 4)}, comm);
  CsrRows rows;  // a ring: each row names itself and the next process's first element
  for (global_index_t r = 0; r < 4; ++r) {
    rows.columns.insert(rows.columns.end(), {start + r, (start + 4) % n});
    rows.values.insert(rows.values.end(), {2.0, -1.0});
    rows.row_offsets.push_back(static_cast<global_index_t>(rows.columns.size()));
  }
  const LocalCsrRows good = with_local_columns(rows, *layout->owned_map());
  ASSERT_EQ(good.ghost_columns.size(), 1u);
  const std::vector<std::pair<std::string, std::function<void(LocalCsrRows&)>>> faults = {
      {"owned_columns", [](LocalCsrRows& c) { c.owned_columns += 1; }},
      {"ghost_columns", [start](LocalCsrRows& c) { c.ghost_columns[0] = start; }},                  // owned here
      {"ghost_columns", [n](LocalCsrRows& c) { c.ghost_columns[0] = n; }},                          // outside
      {"ghost_columns", [](LocalCsrRows& c) { c.ghost_columns.push_back(c.ghost_columns[0]); }},   // twice
      {"columns", [](LocalCsrRows& c) { c.columns.back() = 5; }},                                   // past the ghosts
      {"columns", [](LocalCsrRows& c) { c.columns.back() = -1; }},
      {"rows", [](LocalCsrRows& c) { c.row_offsets.pop_back(); c.columns.resize(6); c.values.resize(6); }},
  };
  for (const auto& [key, spoil] : faults)
    for (int bad = 0; bad < P; ++bad) {
      LocalCsrRows csr = good;
      if (me == bad) spoil(csr);
      SCOPED_TRACE(key + " on rank " + std::to_string(bad));
      expect_every_rank_throws([&] { crs_matrix_copy(*layout, csr.view()); }, bad, key);
    }
}
