// Checkpoints in parallel HDF5 (dapetra/hdf5/checkpoint.hpp): every layout
// kind written by N processes and read by M into another kind, for every N
// and M up to the run's size (the first N or M ranks of the world, the
// others idle meanwhile), compared element by element, ghosts and copies
// included; the file read again by plain serial HDF5 as the global array;
// and faults, each on one process in turn, refused on every process.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <complex>
#include <type_traits>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "dapetra/dim_math.hpp"
#include "dapetra/error.hpp"
#include "dapetra/hdf5/checkpoint.hpp"

using namespace dapetra;
using dapetra::hdf5::SaveMode;

namespace {

constexpr global_index_t n1d = 23, rows = 7, columns = 5;

// A layout kind: its records on p processes, at rank r.
struct Kind {
  std::string name;
  std::function<std::vector<Dim>(int p, int r)> dims;
};

std::vector<global_index_t> scattered(int p, int r) {  // every index g with (5 g + 1) % p == r, descending
  std::vector<global_index_t> out;
  for (global_index_t g = n1d - 1; g >= 0; --g)
    if ((5 * g + 1) % p == r) out.push_back(g);
  return out;
}

const std::vector<Kind>& kinds_1d() {
  static const std::vector<Kind> k = {
      {"block", [](int p, int r) { return std::vector<Dim>{Dim::even_block(n1d, p, r)}; }},
      {"padded block", [](int p, int r) { return std::vector<Dim>{Dim::even_block(n1d, p, r, 2)}; }},
      {"cyclic", [](int p, int r) { return std::vector<Dim>{Dim::cyclic(n1d, p, r)}; }},
      {"block-cyclic", [](int p, int r) { return std::vector<Dim>{Dim::cyclic(n1d, p, r, 3)}; }},
      {"u one-to-one", [](int p, int r) { return std::vector<Dim>{Dim::unstructured(n1d, p, r, scattered(p, r), true)}; }},
      {"u overlapping",
       [](int p, int r) {
         std::set<global_index_t> held;
         for (const global_index_t g : scattered(p, r)) held.insert(g), held.insert((g + 1) % n1d);
         std::vector<global_index_t> list(held.rbegin(), held.rend());
         return std::vector<Dim>{Dim::unstructured(n1d, p, r, list, p == 1)};
       }},
  };
  return k;
}

const std::vector<Kind>& kinds_2d() {
  static const std::vector<Kind> k = {
      {"2-D block x whole", [](int p, int r) { return std::vector<Dim>{Dim::even_block(rows, p, r), Dim::undistributed(columns)}; }},
      {"2-D block-cyclic x whole", [](int p, int r) { return std::vector<Dim>{Dim::cyclic(rows, p, r, 2), Dim::undistributed(columns)}; }},
  };
  return k;
}

// The value of global element (g0, g1): its linear index, and a half.
double value_of(global_index_t linear) { return 0.5 + static_cast<double>(linear); }

// An array of `dims` whose every held element is value_of its global index
// (or `fill`, to be overwritten by a load).
struct Array {
  std::vector<double> values;
  DistArray array;
  Array(const std::vector<Dim>& dims, bool filled) {
    std::vector<global_index_t> extents;
    std::size_t count = 1;
    for (const Dim& d : dims) extents.push_back(local_extent(d)), count *= static_cast<std::size_t>(local_extent(d));
    values.assign(count, -1.0);
    if (filled) for_each([&](std::size_t at, global_index_t linear) { values[at] = value_of(linear); }, dims);
    array.dim_data = dims;
    array.buffer = view_buffer(values.data(), extents);
  }
  // f(buffer position, global linear index) for every held element.
  static void for_each(const std::function<void(std::size_t, global_index_t)>& f, const std::vector<Dim>& dims) {
    const global_index_t e0 = local_extent(dims[0]), e1 = dims.size() > 1 ? local_extent(dims[1]) : 1;
    const global_index_t n1 = dims.size() > 1 ? dims[1].size : 1;
    for (global_index_t i = 0; i < e0; ++i)
      for (global_index_t j = 0; j < e1; ++j)
        f(static_cast<std::size_t>(i * e1 + j),
          global_index(dims[0], i) * n1 + (dims.size() > 1 ? global_index(dims[1], j) : 0));
  }
};

// A file name the same on every process, unique to this run.
std::string scratch(const std::string& stem) {
  int token = static_cast<int>(::getpid());
  MPI_Bcast(&token, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return (std::filesystem::temp_directory_path() / ("dapetra-" + std::to_string(token) + "-" + stem + ".h5")).string();
}

// The first `n` ranks of the world (MPI_COMM_NULL elsewhere).
MPI_Comm first_ranks(int n) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm c = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank < n ? 0 : MPI_UNDEFINED, rank, &c);
  return c;
}

int world_size() {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}

void save_kind(const Kind& kind, MPI_Comm c, const std::string& file, SaveMode mode) {
  int p = 1, r = 0;
  MPI_Comm_size(c, &p);
  MPI_Comm_rank(c, &r);
  const auto dims = kind.dims(p, r);
  const Array a(dims, true);
  hdf5::save<double>(a.array, mpi::DistributedLayout::create(dims, c), file, kind.name, mode);
}

// Loads `written` into `kind` on c and counts the held elements that differ.
int wrong_after_load(const Kind& kind, const std::string& written, MPI_Comm c, const std::string& file) {
  int p = 1, r = 0;
  MPI_Comm_size(c, &p);
  MPI_Comm_rank(c, &r);
  const auto dims = kind.dims(p, r);
  Array a(dims, false);
  hdf5::load<double>(file, written, mpi::DistributedLayout::create(dims, c), a.array);
  int wrong = 0;
  Array::for_each([&](std::size_t at, global_index_t linear) { wrong += a.values[at] != value_of(linear); }, dims);
  return wrong;
}

}  // namespace

TEST(Checkpoint, EveryLayoutComesBackOnAnyProcessCountInAnotherLayout) {
  const int P = world_size();
  const std::string file = scratch("round-trips");
  for (int n = 1; n <= P; ++n) {
    // Written by the first n ranks, every kind in one file.
    if (const MPI_Comm writers = first_ranks(n); writers != MPI_COMM_NULL) {
      bool first = true;
      for (const auto* list : {&kinds_1d(), &kinds_2d()})
        for (const Kind& k : *list) save_kind(k, writers, file, first ? SaveMode::create : SaveMode::append), first = false;
      MPI_Comm writers_copy = writers;
      MPI_Comm_free(&writers_copy);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int m = 1; m <= P; ++m) {
      if (const MPI_Comm readers = first_ranks(m); readers != MPI_COMM_NULL) {
        for (const auto* list : {&kinds_1d(), &kinds_2d()})
          for (std::size_t i = 0; i < list->size(); ++i) {
            const Kind& written = (*list)[i];
            const Kind& into = (*list)[(i + 1) % list->size()];
            EXPECT_EQ(wrong_after_load(into, written.name, readers, file), 0)
                << written.name << " written at " << n << ", read as " << into.name << " at " << m;
          }
        MPI_Comm readers_copy = readers;
        MPI_Comm_free(&readers_copy);
      }
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) std::filesystem::remove(file);
  MPI_Barrier(MPI_COMM_WORLD);
}

// Every element type of the plans (the list the library is instantiated
// from), 1-D and with a second axis, written from a cyclic layout and read
// into a padded block one: both through redistribution plans, whose layouts
// must be made for the element type (a slab of ints made for doubles was
// refused as having the wrong strides).
template <class T>
void element_type_round_trip(const std::string& file, int P, int rank) {
  for (const global_index_t width : {global_index_t{1}, global_index_t{3}}) {
    const std::vector<Dim> from{Dim::cyclic(n1d, P, rank), Dim::undistributed(width)},
        to{Dim::even_block(n1d, P, rank, 2), Dim::undistributed(width)};
    const auto value = [&](global_index_t g, global_index_t j) {
      const auto k = static_cast<int>(3 * g + j + 1);
      if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
        return T(static_cast<typename T::value_type>(k), static_cast<typename T::value_type>(-k));
      else
        return static_cast<T>(k);
    };
    std::vector<T> a(static_cast<std::size_t>(local_extent(from[0]) * width)),
        b(static_cast<std::size_t>(local_extent(to[0]) * width));
    for (global_index_t i = 0; i < local_extent(from[0]); ++i)
      for (global_index_t j = 0; j < width; ++j) a[static_cast<std::size_t>(i * width + j)] = value(global_index(from[0], i), j);
    DistArray x{dap_version, view_buffer(a.data(), {local_extent(from[0]), width}), from},
        y{dap_version, view_buffer(b.data(), {local_extent(to[0]), width}), to};
    const std::string name = std::string("type ") + format_of<T>() + " width " + std::to_string(width);
    hdf5::save<T>(x, mpi::DistributedLayout::create(x, MPI_COMM_WORLD), file, name, SaveMode::append);
    hdf5::load<T>(file, name, mpi::DistributedLayout::create(y, MPI_COMM_WORLD), y);
    int wrong = 0;
    for (global_index_t i = 0; i < local_extent(to[0]); ++i)
      for (global_index_t j = 0; j < width; ++j) wrong += b[static_cast<std::size_t>(i * width + j)] != value(global_index(to[0], i), j);
    EXPECT_EQ(wrong, 0) << name << " on rank " << rank;
  }
}

TEST(Checkpoint, EveryElementTypeComesBack) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string file = scratch("types");
  save_kind(kinds_1d()[0], MPI_COMM_WORLD, file, SaveMode::create);
#define DAPETRA_ROUND_TRIP(T) element_type_round_trip<T>(file, world_size(), rank);
  DAPETRA_FOR_EACH_PLAN_SCALAR(DAPETRA_ROUND_TRIP)
#undef DAPETRA_ROUND_TRIP
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) std::filesystem::remove(file);
}

// The file is plain HDF5: serial HDF5 (no MPI) reads the global array, in
// global index order, with its attributes.
TEST(Checkpoint, SerialHdf5ReadsTheGlobalArray) {
  const std::string file = scratch("plain");
  save_kind(kinds_2d()[1], MPI_COMM_WORLD, file, SaveMode::create);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // The shape as dataset_shape() tells every process, to make a target layout.
  EXPECT_EQ(hdf5::dataset_shape(file, kinds_2d()[1].name, MPI_COMM_WORLD), (std::vector<global_index_t>{rows, columns}));
  if (rank == 0) {
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    const hid_t d = H5Dopen2(f, kinds_2d()[1].name.c_str(), H5P_DEFAULT);
    ASSERT_GE(d, 0);
    const hid_t space = H5Dget_space(d);
    hsize_t dims[2] = {0, 0};
    ASSERT_EQ(H5Sget_simple_extent_ndims(space), 2);
    H5Sget_simple_extent_dims(space, dims, nullptr);
    EXPECT_EQ(dims[0], static_cast<hsize_t>(rows));
    EXPECT_EQ(dims[1], static_cast<hsize_t>(columns));
    std::vector<double> all(static_cast<std::size_t>(rows * columns));
    ASSERT_GE(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, all.data()), 0);
    for (std::size_t g = 0; g < all.size(); ++g) EXPECT_EQ(all[g], value_of(static_cast<global_index_t>(g))) << g;
    EXPECT_GT(H5Aexists(d, "dist_type"), 0);
    EXPECT_GT(H5Aexists(d, "dap_version"), 0);
    H5Sclose(space);
    H5Dclose(d);
    H5Fclose(f);
    std::filesystem::remove(file);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// A fault on one process (another dataset name), or on all (a missing file,
// a missing dataset, a foreign or truncated file, another shape, another element type, a
// taken name): the same ValidationError on every process, naming the key;
// and a sound load afterwards (nobody was left waiting).
TEST(Faults, CheckpointFaultsAreRefusedOnEveryProcess) {
  int rank = 0, P = world_size();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string file = scratch("faults"), foreign = scratch("foreign");
  const Kind& block = kinds_1d()[0];
  save_kind(block, MPI_COMM_WORLD, file, SaveMode::create);
  if (rank == 0) std::ofstream(foreign) << "not an HDF5 file\n";
  MPI_Barrier(MPI_COMM_WORLD);
  const auto dims = block.dims(P, rank);
  const auto layout = mpi::DistributedLayout::create(dims, MPI_COMM_WORLD);
  Array a(dims, false);
  const auto expect_refused = [&](const std::function<void()>& step, const std::string& key, int at_rank) {
    try {
      step();
      ADD_FAILURE() << "a fault in '" << key << "' was accepted";
    } catch (const ValidationError& e) {
      ASSERT_FALSE(e.problems().empty());
      EXPECT_EQ(e.problems()[0].key, key) << e.what();
      if (at_rank >= 0) {
        EXPECT_EQ(e.problems()[0].rank, at_rank) << e.what();
      }
    }
  };
  // (which side of a disagreement is named depends on the names' hashes: any rank may be)
  for (int bad = 0; bad < P && P > 1; ++bad)
    expect_refused([&] { hdf5::load<double>(file, rank == bad ? "other" : block.name, layout, a.array); }, "name", -1);
  // Another mode on one process (one would create the file, the others open it): refused before either.
  for (int bad = 0; bad < P && P > 1; ++bad) {
    const Array filled(dims, true);
    expect_refused([&] {
      hdf5::save<double>(filled.array, layout, file, "another", rank == bad ? SaveMode::create : SaveMode::append);
    }, "name", -1);
  }
  expect_refused([&] { hdf5::load<double>(file + ".missing", block.name, layout, a.array); }, "file", 0);
  expect_refused([&] { hdf5::load<double>(foreign, block.name, layout, a.array); }, "file", 0);
  expect_refused([&] { hdf5::load<double>(file, "absent/dataset", layout, a.array); }, "dataset", 0);
  expect_refused([&] { hdf5::dataset_shape(file, "absent/dataset", MPI_COMM_WORLD); }, "dataset", 0);
  expect_refused([&] { hdf5::dataset_shape(foreign, block.name, MPI_COMM_WORLD); }, "file", 0);
  {
    // A checkpoint cut short (a copy of it, truncated to 60 %): HDF5 finds
    // its end before the end it recorded, so the file is refused whole.
    const std::string truncated = scratch("truncated");
    if (rank == 0) {
      std::filesystem::copy_file(file, truncated, std::filesystem::copy_options::overwrite_existing);
      std::filesystem::resize_file(truncated, std::filesystem::file_size(truncated) * 6 / 10);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    expect_refused([&] { hdf5::load<double>(truncated, block.name, layout, a.array); }, "file", 0);
    expect_refused([&] { hdf5::dataset_shape(truncated, block.name, MPI_COMM_WORLD); }, "file", 0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) std::filesystem::remove(truncated);
  }
  for (int bad = 0; bad < P && P > 1; ++bad)
    expect_refused([&] { hdf5::dataset_shape(file, rank == bad ? "other" : block.name, MPI_COMM_WORLD); }, "name", -1);
  {
    const std::vector<Dim> longer{Dim::even_block(n1d + 1, P, rank)};
    Array b(longer, false);
    expect_refused([&] { hdf5::load<double>(file, block.name, mpi::DistributedLayout::create(longer, MPI_COMM_WORLD), b.array); },
                   "shape", 0);
  }
  {
    std::vector<int> ints(a.values.size());
    DistArray as_int = a.array;
    as_int.buffer = view_buffer(ints.data(), a.array.buffer.shape);
    expect_refused([&] { hdf5::load<int>(file, block.name, layout, as_int); }, "type", 0);
  }
  {
    const Array filled(dims, true);
    expect_refused([&] { hdf5::save<double>(filled.array, layout, file, block.name, SaveMode::append); }, "dataset", 0);
  }
  // An array whose buffer does not fit its layout on one process, in turn,
  // saved and loaded: a plan tells only the processes it exchanges with, so
  // the others would go on into HDF5's collective calls; every process is
  // told instead (block: the slabs' own split; padded block: a plan).
  for (const Kind* kind : {&kinds_1d()[0], &kinds_1d()[1]})
    for (int bad = 0; bad < P; ++bad) {
      const auto kdims = kind->dims(P, rank);
      const auto klayout = mpi::DistributedLayout::create(kdims, MPI_COMM_WORLD);
      Array k(kdims, true);
      std::vector<double> shorter(k.values.size() + 1);
      DistArray wrong = k.array;
      if (rank == bad) wrong.buffer = view_buffer(shorter.data(), {static_cast<global_index_t>(shorter.size())});
      expect_refused([&] { hdf5::save<double>(wrong, klayout, file, "wrong", SaveMode::append); }, "shape", bad);
      expect_refused([&] { hdf5::load<double>(file, block.name, klayout, wrong); }, "shape", bad);
    }
  // Afterwards every process loads, and every element is right.
  EXPECT_EQ(wrong_after_load(block, block.name, MPI_COMM_WORLD, file), 0);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) std::filesystem::remove(file), std::filesystem::remove(foreign);
}
