// Checkpoint rows (dapetra/hdf5/checkpoint.hpp): save and load of a block
// array of doubles against the disk's own bandwidth, and a read on fewer
// processes than wrote against the read on as many.
//
//   mpirun -n 2 dapetra-bench-checkpoint --out FILE [--dir DIR] [--quick] [--check]
//
// Rows (each checks that every value came back):
//   - save, fsync included, against one process writing the same bytes
//     with write() and fsync(): target 1 / 0.7 (at least 0.7 of the disk's
//     bandwidth); each side writes a new file (the last one removed before,
//     untimed: remove_and_settle());
//   - load, the page cache of the file dropped first (posix_fadvise
//     DONTNEED after fsync: no root needed), against one process read()ing
//     the same bytes with its cache dropped the same way: target 1 / 0.7;
//   - load on half the processes (N to M, M = N / 2, or 1) against load on
//     all (N to N), the same file: target 1.2;
//   - with PETSc (built with the PETSc adapter): save and load of the same
//     block vector against PETSc's own VecView and VecLoad through
//     PetscViewerHDF5, each file flushed and its cache dropped alike:
//     target 1.0.
// Full: 10^8 doubles (800 MB); --quick: 10^6.
#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "dapetra/dim_math.hpp"
#include "dapetra/hdf5/checkpoint.hpp"
#ifdef DAPETRA_BENCH_PETSC
#include <petscvec.h>
#include <petscviewerhdf5.h>
#endif

namespace {

using dapetra::bench::Report;
using dapetra::bench::Row;

// Durable, and out of the page cache: what a restart on a new allocation reads.
void flush_and_forget(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  ::fsync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

// One process moves `bytes` between `data` and the file with write() (then
// fsync()) or read(), in 64 MiB pieces: the disk's own bandwidth.
void plain_transfer(const std::string& path, char* data, std::size_t bytes, bool writing) {
  const int fd = writing ? ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644) : ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw std::runtime_error("cannot open " + path);
  for (std::size_t at = 0; at < bytes;) {
    const std::size_t piece = std::min<std::size_t>(bytes - at, std::size_t{64} << 20);
    const ssize_t n = writing ? ::write(fd, data + at, piece) : ::read(fd, data + at, piece);
    if (n <= 0) throw std::runtime_error(std::string(writing ? "write" : "read") + " failed: " + path);
    at += static_cast<std::size_t>(n);
  }
  if (writing) ::fsync(fd);
  ::close(fd);
}

// Before a timed write, untimed: the file's previous version removed and
// the file system synced, so that each side writes a new file. Replacing an
// 800 MB file costs its deletion (0.09-0.3 s on this VM's ext4, which
// discards freed blocks as it frees them), and the two sides would replace
// differently: save() renames over the old file (on ext4 that also starts
// the new file's write-back), write() truncates it.
void remove_and_settle(const std::string& path) {
  std::remove(path.c_str());
  ::sync();
}

void plain_write(const std::string& path, const char* data, std::size_t bytes) {
  plain_transfer(path, const_cast<char*>(data), bytes, true);  // (written from, never into)
}

void plain_read(const std::string& path, char* data, std::size_t bytes) { plain_transfer(path, data, bytes, false); }

// A block array of n doubles over comm, its values its global indices (or -1).
struct BlockArray {
  std::vector<double> values;
  dapetra::DistArray array;
  std::shared_ptr<const dapetra::mpi::DistributedLayout> layout;
  BlockArray(dapetra::global_index_t n, MPI_Comm comm, bool filled) {
    int p = 1, r = 0;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    const dapetra::Dim d = dapetra::Dim::even_block(n, p, r);
    values.assign(static_cast<std::size_t>(d.stop - d.start), -1.0);
    if (filled)
      for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(d.start + static_cast<dapetra::global_index_t>(i));
    array.dim_data = {d};
    array.buffer = dapetra::view_buffer(values.data(), {d.stop - d.start});
    layout = dapetra::mpi::DistributedLayout::create(array, comm);
  }
  bool right(MPI_Comm comm) const {
    const auto start = array.dim_data[0].start;
    bool ok = true;
    for (std::size_t i = 0; i < values.size(); ++i) ok = ok && values[i] == static_cast<double>(start + static_cast<dapetra::global_index_t>(i));
    return dapetra::bench::all_ranks(ok, comm);
  }
};

#ifdef DAPETRA_BENCH_PETSC
// PETSc's own checkpoint of the same block vector, as its users write one:
// VecView and VecLoad through PetscViewerHDF5 (collective, MPI-IO).
struct PetscCheckpoint {
  Vec v = nullptr;
  explicit PetscCheckpoint(const BlockArray& a) {
    VecCreateMPI(PETSC_COMM_WORLD, static_cast<PetscInt>(a.values.size()), PETSC_DETERMINE, &v);
    PetscObjectSetName(reinterpret_cast<PetscObject>(v), "u");
  }
  PetscCheckpoint(const PetscCheckpoint&) = delete;
  PetscCheckpoint& operator=(const PetscCheckpoint&) = delete;
  ~PetscCheckpoint() { VecDestroy(&v); }
  void set(const std::vector<double>& values) {
    PetscScalar* x = nullptr;
    VecGetArray(v, &x);
    std::copy(values.begin(), values.end(), x);
    VecRestoreArray(v, &x);
  }
  void save(const std::string& path) const { transfer(path, FILE_MODE_WRITE); }
  void load(const std::string& path) { transfer(path, FILE_MODE_READ); }
  // Whether every process holds its block's global indices.
  bool right(dapetra::global_index_t start) const {
    const PetscScalar* x = nullptr;
    PetscInt n = 0;
    VecGetLocalSize(v, &n);
    VecGetArrayRead(v, &x);
    bool ok = true;
    for (PetscInt i = 0; i < n; ++i) ok = ok && x[i] == static_cast<double>(start + i);
    VecRestoreArrayRead(v, &x);
    return dapetra::bench::all_ranks(ok, MPI_COMM_WORLD);
  }

 private:
  void transfer(const std::string& path, PetscFileMode mode) const {
    PetscViewer viewer = nullptr;
    PetscViewerHDF5Open(PETSC_COMM_WORLD, path.c_str(), mode, &viewer);
    if (mode == FILE_MODE_WRITE) VecView(v, viewer);
    else VecLoad(v, viewer);
    PetscViewerDestroy(&viewer);
  }
};

// Dapetra's save and load of `source` against PETSc's VecView and VecLoad
// of the same values, files flushed and dropped from the cache alike.
void add_petsc_rows(Report& report, const BlockArray& source, BlockArray& target, const std::string& dir,
                    const std::string& label, int repetitions, int rank) {
  const std::string ours = dir + "/checkpoint-bench-dapetra.h5", theirs = dir + "/checkpoint-bench-petsc.h5";
  PetscCheckpoint petsc(source);
  petsc.set(source.values);
  const auto saved = dapetra::bench::paired_median_seconds(
      MPI_COMM_WORLD, repetitions,
      [&] {
        dapetra::hdf5::save<double>(source.array, source.layout, ours, "u");
        if (rank == 0) flush_and_forget(ours);
      },
      [&] {
        petsc.save(theirs);
        if (rank == 0) flush_and_forget(theirs);
      },
      [&] {
        if (rank == 0) remove_and_settle(ours);
      },
      [&] {
        if (rank == 0) remove_and_settle(theirs);
      });
  petsc.set(std::vector<double>(source.values.size(), -1.0));
  const auto forget = [&] {
    if (rank == 0) flush_and_forget(ours), flush_and_forget(theirs);
  };
  const auto loaded = dapetra::bench::paired_median_seconds(
      MPI_COMM_WORLD, repetitions, [&] { dapetra::hdf5::load<double>(ours, "u", target.layout, target.array); },
      [&] { petsc.load(theirs); }, forget, forget);
  const bool right = target.right(MPI_COMM_WORLD) && petsc.right(source.array.dim_data[0].start);
  report.add(Row{"checkpoint save vs PETSc " + label, saved.ours, "PETSc VecView (PetscViewerHDF5) + fsync", saved.baseline,
                 1.0, {}, right});
  report.add(Row{"checkpoint load vs PETSc " + label, loaded.ours, "PETSc VecLoad (PetscViewerHDF5), cache dropped",
                 loaded.baseline, 1.0, {}, right});
  if (rank == 0) std::remove(ours.c_str()), std::remove(theirs.c_str());
}
#endif

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::string out = "results.json", dir = ".";
  bool quick = false, check = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) out = argv[++i];
    else if (a == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (a == "--quick") quick = true;
    else if (a == "--check") check = true;
  }
  int status = 0;
  {
    const dapetra::global_index_t n = quick ? 1000000 : 100000000;
    // Seven pairs at full size: on this project's VM a write meets slow
    // memory in about a third of the repetitions, either side (see
    // docs/checkpoint.md), and the median of three lands on either mode.
    const int repetitions = quick ? 3 : 7;
    const std::string file = dir + "/checkpoint-bench.h5", raw = dir + "/checkpoint-bench.raw";
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(double);
    Report report(rank);
    report.header();
    const std::string label = "N=" + std::string(quick ? "1e6" : "1e8") + " doubles np=" + std::to_string(size);

    // Save: every process its block, against one process's write().
    BlockArray source(n, MPI_COMM_WORLD, true);
    std::vector<double> whole(rank == 0 ? static_cast<std::size_t>(n) : 0);
    for (std::size_t i = 0; i < whole.size(); ++i) whole[i] = static_cast<double>(i);
    const auto save = [&] {
      dapetra::hdf5::save<double>(source.array, source.layout, file, "u");
      if (rank == 0) flush_and_forget(file);
    };
    const auto write = [&] {
      if (rank == 0) plain_write(raw, reinterpret_cast<const char*>(whole.data()), bytes);
    };
    const auto saved = dapetra::bench::paired_median_seconds(
        MPI_COMM_WORLD, repetitions, save, write,
        [&] {
          if (rank == 0) remove_and_settle(file);
        },
        [&] {
          if (rank == 0) remove_and_settle(raw);
        });
    std::vector<double> back(whole.size(), -1.0);
    if (rank == 0) plain_read(raw, reinterpret_cast<char*>(back.data()), bytes);
    const bool raw_right = dapetra::bench::all_ranks(back == whole, MPI_COMM_WORLD);

    // Load on every process, cache dropped first, against one process's read().
    BlockArray target(n, MPI_COMM_WORLD, false);
    const auto forget = [&] {
      if (rank == 0) flush_and_forget(file), flush_and_forget(raw);
    };
    const auto loaded = dapetra::bench::paired_median_seconds(
        MPI_COMM_WORLD, repetitions, [&] { dapetra::hdf5::load<double>(file, "u", target.layout, target.array); },
        [&] {
          if (rank == 0) plain_read(raw, reinterpret_cast<char*>(back.data()), bytes);
        },
        forget, forget);
    const bool loaded_right = target.right(MPI_COMM_WORLD) && raw_right;
    report.add(Row{"checkpoint save (fsync) " + label, saved.ours, "one process write() + fsync of the same bytes",
                   saved.baseline, 1.0 / 0.7, {{"bytes", bytes}}, raw_right && loaded_right});
    report.add(Row{"checkpoint load (cache dropped) " + label, loaded.ours,
                   "one process read() of the same bytes (cache dropped)", loaded.baseline, 1.0 / 0.7, {{"bytes", bytes}},
                   loaded_right});

    // N to M: the same file read on half the processes, against all of them.
    if (size > 1) {
      const int m = std::max(1, size / 2);
      MPI_Comm fewer = MPI_COMM_NULL;
      MPI_Comm_split(MPI_COMM_WORLD, rank < m ? 0 : MPI_UNDEFINED, rank, &fewer);
      std::unique_ptr<BlockArray> on_fewer;
      if (fewer != MPI_COMM_NULL) on_fewer = std::make_unique<BlockArray>(n, fewer, false);
      const auto n_to_m = [&] {
        if (fewer != MPI_COMM_NULL) dapetra::hdf5::load<double>(file, "u", on_fewer->layout, on_fewer->array);
      };
      const auto n_to_n = [&] { dapetra::hdf5::load<double>(file, "u", target.layout, target.array); };
      const auto times = dapetra::bench::paired_median_seconds(MPI_COMM_WORLD, repetitions, n_to_m, n_to_n, forget, forget);
      const bool right = dapetra::bench::all_ranks(fewer == MPI_COMM_NULL || on_fewer->right(fewer), MPI_COMM_WORLD) &&
                         target.right(MPI_COMM_WORLD);
      report.add(Row{"checkpoint read " + std::to_string(size) + " to " + std::to_string(m) + " " + label, times.ours,
                     "the same file read " + std::to_string(size) + " to " + std::to_string(size), times.baseline, 1.2,
                     {{"readers", m}}, right});
      if (fewer != MPI_COMM_NULL) MPI_Comm_free(&fewer);
    }
#ifdef DAPETRA_BENCH_PETSC
    PetscInitializeNoArguments();
    add_petsc_rows(report, source, target, dir, label, repetitions, rank);
    PetscFinalize();
#endif
    if (rank == 0) std::remove(file.c_str()), std::remove(raw.c_str());
    nlohmann::ordered_json context;
    context["np"] = size;
    context["mode"] = quick ? "quick" : "full";
    report.write(out, context, true);
    if (check && !report.all_same()) {
      if (rank == 0) std::printf("check FAILED: a row marked WRONG read back other values than it wrote\n");
      status = 1;
    }
  }
  MPI_Finalize();
  return status;
}
