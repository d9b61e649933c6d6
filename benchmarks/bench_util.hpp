// Timing and reporting for Dapetra's MPI benchmark driver.
//
// Every measurement is taken in the same run as its baseline and reported as
// a ratio ours / baseline next to the largest acceptable ratio (the target).
// A time is the median over repetitions of the slowest process's time, each
// repetition starting from a barrier.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace dapetra::bench {

inline double median_seconds(MPI_Comm comm, int repetitions, const std::function<void()>& work,
                             const std::function<void()>& between = {}) {
  std::vector<double> times;
  for (int i = 0; i < repetitions; ++i) {
    if (between) between();
    MPI_Barrier(comm);
    const auto t0 = std::chrono::steady_clock::now();
    work();
    double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    times.push_back(slowest);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Ours and the baseline timed in alternation, repetition by repetition, so
// that drift in the machine's speed (other tenants, frequency, the kernel's
// memory housekeeping) lands on both alike. Each repetition gives a pair of
// adjacent timings; the pair with the median ratio is reported, so the
// reported times are real adjacent measurements and their ratio is the
// median of the per-pair ratios.
struct PairedTimes {
  double ours, baseline;
};
// `ours_between` / `baseline_between`, when given, run before each timing,
// untimed: what an application does between two calls (new values to send).
inline PairedTimes paired_median_seconds(MPI_Comm comm, int repetitions, const std::function<void()>& ours,
                                         const std::function<void()>& baseline,
                                         const std::function<void()>& ours_between = {},
                                         const std::function<void()>& baseline_between = {}) {
  std::vector<PairedTimes> pairs;
  for (int i = 0; i < repetitions; ++i) {
    const double a = median_seconds(comm, 1, ours, ours_between);
    const double b = median_seconds(comm, 1, baseline, baseline_between);
    pairs.push_back({a, b});
  }
  std::sort(pairs.begin(), pairs.end(),
            [](const PairedTimes& x, const PairedTimes& y) { return x.ours * y.baseline < y.ours * x.baseline; });
  return pairs[pairs.size() / 2];
}

// Resident memory of this process now, in MiB (from /proc/self/statm).
inline double resident_mib() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

// True on every process iff true on every process.
inline bool all_ranks(bool value, MPI_Comm comm) {
  int mine = value ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
  return all == 1;
}

struct Row {
  std::string name;
  double ours_s;
  std::string baseline;
  double baseline_s;
  double target;
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();
  // Both sides produced the same result (checked after timing); a row that
  // fails its check does not hold, whatever its ratio. No default: a row
  // that never sets it is refused by Report::add.
  std::optional<bool> same_result;
  bool same() const { return same_result.value_or(false); }
  bool holds() const { return same() && baseline_s > 0 && ours_s / baseline_s <= target; }
};

class Report {
 public:
  explicit Report(int rank) : rank_(rank) {}
  void add(Row row) {
    if (!row.same_result) throw std::logic_error("benchmark row '" + row.name + "' checks nothing: set same_result");
    const double ratio = row.baseline_s > 0 ? row.ours_s / row.baseline_s : 0.0;
    if (rank_ == 0)
      std::printf("%-52s %11.3e %11.3e %8.3f %7.2f  %s  (vs %s)\n", row.name.c_str(), row.ours_s, row.baseline_s, ratio,
                  row.target, !row.same() ? "WRONG" : row.holds() ? "ok  " : "MISS", row.baseline.c_str());
    std::fflush(stdout);
    rows_.push_back(std::move(row));
  }
  // Whether every row so far checked out (both sides the same result).
  bool all_same() const {
    return std::all_of(rows_.begin(), rows_.end(), [](const Row& r) { return r.same(); });
  }
  void header() const {
    if (rank_ == 0)
      std::printf("%-52s %11s %11s %8s %7s\n", "benchmark", "ours [s]", "base [s]", "ratio", "target");
  }
  void write(const std::string& path, const nlohmann::ordered_json& context, bool append = false) const {
    if (rank_ != 0) return;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    if (append) {
      std::ifstream in(path);
      if (in) rows = nlohmann::ordered_json::parse(in, nullptr, false);
      if (!rows.is_array()) rows = nlohmann::ordered_json::array();
    }
    for (const Row& r : rows_) {
      nlohmann::ordered_json j;
      j["name"] = r.name;
      j["ours_s"] = r.ours_s;
      j["baseline"] = r.baseline;
      j["baseline_s"] = r.baseline_s;
      j["ratio"] = r.baseline_s > 0 ? r.ours_s / r.baseline_s : 0.0;
      j["target"] = r.target;
      j["same_result"] = r.same();
      j["holds"] = r.holds();
      for (const auto& [k, v] : r.extra.items()) j[k] = v;
      for (const auto& [k, v] : context.items()) j[k] = v;
      rows.push_back(j);
    }
    std::ofstream(path) << rows.dump(1) << "\n";
    std::size_t held = 0;
    for (const auto& j : rows) held += j["holds"].get<bool>();
    std::printf("\n%zu of %zu targets hold; results in %s\n", held, rows.size(), path.c_str());
  }

 private:
  int rank_;
  std::vector<Row> rows_;
};

}  // namespace dapetra::bench
