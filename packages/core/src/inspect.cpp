#include "dapetra/inspect.hpp"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>

#include "dapetra/dim_math.hpp"
#include "dapetra/validate.hpp"

namespace dapetra {
namespace {

using ordered_json = nlohmann::ordered_json;

// Problems of a layout that could only be read in part: what the reader
// found, plus the local rules of every rank that was read whole. Collective
// rules are left out; they would mostly repeat the reading problems.
std::vector<Problem> problems_of_partial(const ParsedLayout& parsed) {
  std::vector<Problem> out = parsed.problems;
  auto v = check_version(parsed.layout.version);
  out.insert(out.end(), v.begin(), v.end());
  for (int r = 0; r < static_cast<int>(parsed.layout.ranks.size()); ++r) {
    const bool readable = std::none_of(parsed.unreadable.begin(), parsed.unreadable.end(),
                                       [r](const auto& u) { return u.first == r; });
    const bool no_reader_problem = std::none_of(parsed.problems.begin(), parsed.problems.end(),
                                                [r](const Problem& p) { return p.rank == r; });
    if (readable && no_reader_problem) {
      auto p = check_rank(parsed.layout.ranks[r].dim_data, r, parsed.layout.ranks[r].local_shape);
      out.insert(out.end(), p.begin(), p.end());
    }
  }
  return out;
}

std::string shape_text(const std::vector<global_index_t>& shape) {
  if (shape.empty()) return "() (scalar)";
  std::string s;
  for (auto n : shape) s += (s.empty() ? "" : " x ") + std::to_string(n);
  return s;
}

template <class T>
std::string tuple_text(const std::vector<T>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + ")";
}

}  // namespace

InspectReport inspect(const ParsedLayout& parsed) {
  InspectReport rep;
  rep.nprocs = static_cast<int>(parsed.layout.ranks.size());
  rep.problems = parsed.ok() ? check_layout(parsed.layout) : problems_of_partial(parsed);
  if (!rep.problems.empty()) return rep;

  const GlobalLayout gl(parsed.layout);
  rep.valid = true;
  rep.global_shape = gl.global_shape();
  rep.grid_shape = gl.grid().shape();
  for (int r = 0; r < gl.nprocs(); ++r) {
    RankReport rr;
    rr.rank = r;
    rr.grid_coords = gl.grid().coords_of(r);
    rr.local_shape = local_shape_of(gl.dim_data(r));
    rr.num_local = std::accumulate(rr.local_shape.begin(), rr.local_shape.end(), global_index_t{1}, std::multiplies<>());
    rr.num_owned = gl.num_owned(r);
    for (int d = 0; d < gl.ndim(); ++d) {
      const Dim& dim = gl.record(r, d);
      DimReport dr;
      const global_index_t n = local_extent(dim);
      dr.global_indices.resize(n);
      dr.owned.resize(n);
      for (global_index_t i = 0; i < n; ++i) {
        dr.global_indices[i] = global_index(dim, i);
        dr.owned[i] = gl.axis(d).is_owned(rr.grid_coords[d], i);
      }
      rr.dims.push_back(std::move(dr));
    }
    rep.ranks.push_back(std::move(rr));
  }

  const global_index_t total = std::accumulate(rep.global_shape.begin(), rep.global_shape.end(), global_index_t{1}, std::multiplies<>());
  if ((gl.ndim() == 1 || gl.ndim() == 2) && total <= owner_map_limit) {
    rep.owner_map.resize(total);
    std::vector<global_index_t> g(gl.ndim());
    for (global_index_t flat = 0; flat < total; ++flat) {
      global_index_t rest = flat;
      for (int d = gl.ndim() - 1; d >= 0; --d) {
        g[d] = rest % rep.global_shape[d];
        rest /= rep.global_shape[d];
      }
      rep.owner_map[flat] = gl.owner(g);
    }
  }
  return rep;
}

std::string report_to_json(const InspectReport& rep) {
  ordered_json j;
  j["valid"] = rep.valid;
  if (!rep.valid) {
    j["errors"] = ordered_json::array();
    for (const Problem& p : rep.problems) {
      ordered_json e;
      e["rank"] = p.rank >= 0 ? ordered_json(p.rank) : ordered_json(nullptr);
      e["dim"] = p.dim >= 0 ? ordered_json(p.dim) : ordered_json(nullptr);
      e["key"] = p.key;
      e["value"] = p.value;
      e["rule"] = p.rule;
      e["message"] = p.message;
      j["errors"].push_back(std::move(e));
    }
    return j.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
  }
  j["global_shape"] = rep.global_shape;
  j["nprocs"] = rep.nprocs;
  j["ranks"] = ordered_json::array();
  for (const RankReport& r : rep.ranks) {
    ordered_json e;
    e["rank"] = r.rank;
    e["grid_coords"] = r.grid_coords;
    e["local_shape"] = r.local_shape;
    e["num_owned"] = r.num_owned;
    e["dims"] = ordered_json::array();
    for (const DimReport& d : r.dims) {
      ordered_json dj;
      dj["global_indices"] = d.global_indices;
      dj["owned"] = d.owned;
      e["dims"].push_back(std::move(dj));
    }
    j["ranks"].push_back(std::move(e));
  }
  return j.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

std::string report_to_text(const InspectReport& rep) {
  std::ostringstream os;
  if (!rep.valid) {
    os << "layout: INVALID (" << rep.problems.size() << " problem" << (rep.problems.size() == 1 ? "" : "s") << ")\n";
    for (const Problem& p : rep.problems) os << "  - " << p.to_string() << "\n";
    return os.str();
  }
  std::vector<global_index_t> grid(rep.grid_shape.begin(), rep.grid_shape.end());
  os << "layout: valid\n"
     << "global shape: " << shape_text(rep.global_shape) << "    process grid: " << shape_text(grid)
     << "    ranks: " << rep.nprocs << "\n\n";
  os << "  rank  grid coords  local shape      owned     halo\n";
  global_index_t max_owned = 0, sum_owned = 0, sum_halo = 0;
  for (const RankReport& r : rep.ranks) {
    const global_index_t halo = r.num_local - r.num_owned;
    os << std::setw(6) << r.rank << "  " << std::left << std::setw(11) << tuple_text(r.grid_coords) << "  "
       << std::setw(13) << shape_text(r.local_shape) << std::right << std::setw(9) << r.num_owned << std::setw(9)
       << halo << "\n";
    max_owned = std::max(max_owned, r.num_owned);
    sum_owned += r.num_owned;
    sum_halo += halo;
  }
  const double mean = rep.nprocs ? static_cast<double>(sum_owned) / rep.nprocs : 0.0;
  os << "\nowned elements: " << sum_owned << "    halo (padding and copies owned elsewhere): " << sum_halo << "\n";
  os << "load imbalance (max owned / mean owned): " << std::fixed << std::setprecision(3)
     << (mean > 0 ? static_cast<double>(max_owned) / mean : 1.0) << "\n";
  if (!rep.owner_map.empty()) {
    const global_index_t cols = rep.global_shape.back();
    const int width = static_cast<int>(std::to_string(std::max(rep.nprocs - 1, 0)).size()) + 1;
    os << "\nowner map (rank owning each global element" << (rep.global_shape.size() == 2 ? ", rows = axis 0" : "")
       << "):\n";
    for (std::size_t i = 0; i < rep.owner_map.size(); ++i) {
      if (rep.owner_map[i] < 0) os << std::setw(width) << ".";
      else os << std::setw(width) << rep.owner_map[i];
      if ((static_cast<global_index_t>(i) + 1) % cols == 0) os << "\n";
    }
  } else if (rep.global_shape.size() <= 2) {
    os << "\nowner map: omitted (more than " << owner_map_limit << " elements)\n";
  }
  return os.str();
}

}  // namespace dapetra
