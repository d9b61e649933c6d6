#include "dapetra/mpi/agree.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "collectives.hpp"

namespace dapetra::mpi {
namespace {

// Problems as bytes for one gather: per problem its rank and dimension,
// then each text field with its length first.
void put_int(std::string& out, std::int64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

std::int64_t take_int(const char*& p) {
  std::int64_t v = 0;
  std::memcpy(&v, p, sizeof v);
  p += sizeof v;
  return v;
}

std::string take_text(const char*& p) {
  const auto n = static_cast<std::size_t>(take_int(p));
  std::string s(p, n);
  p += n;
  return s;
}

std::string to_bytes(const std::vector<Problem>& problems) {
  std::string out;
  for (const Problem& q : problems) {
    put_int(out, q.rank);
    put_int(out, q.dim);
    for (const std::string* s : {&q.key, &q.value, &q.rule, &q.message}) {
      put_int(out, static_cast<std::int64_t>(s->size()));
      out += *s;
    }
  }
  return out;
}

void from_bytes(const char* p, const char* end, std::vector<Problem>& out) {
  while (p < end) {
    Problem q;
    q.rank = static_cast<int>(take_int(p));
    q.dim = static_cast<int>(take_int(p));
    for (std::string* s : {&q.key, &q.value, &q.rule, &q.message}) *s = take_text(p);
    out.push_back(std::move(q));
  }
}

// Every process's problems, in rank order. Collective.
std::vector<Problem> gather_problems(const std::vector<Problem>& mine, MPI_Comm comm) {
  const int P = detail::size_of(comm);
  const std::string bytes = to_bytes(mine);
  const int count = static_cast<int>(bytes.size());
  std::vector<int> counts(static_cast<std::size_t>(P)), displs(static_cast<std::size_t>(P), 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  for (int r = 1; r < P; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::string all(static_cast<std::size_t>(displs[P - 1] + counts[P - 1]), '\0');
  MPI_Allgatherv(bytes.data(), count, MPI_CHAR, all.data(), counts.data(), displs.data(), MPI_CHAR, comm);
  std::vector<Problem> every, out;
  from_bytes(all.data(), all.data() + all.size(), every);
  for (Problem& q : every)
    if (std::find(out.begin(), out.end(), q) == out.end()) out.push_back(std::move(q));
  return out;
}

}  // namespace

bool all_true(bool value, MPI_Comm comm) {
  int mine = value ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
  return all == 1;
}

bool same_as_every_process(const std::string& arguments, MPI_Comm comm) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (const unsigned char c : arguments) h = (h ^ c) * 1099511628211ull;
  const std::uint64_t mine[2] = {h, ~h};
  std::uint64_t least[2];
  MPI_Allreduce(mine, least, 2, MPI_UINT64_T, MPI_MIN, comm);
  return least[0] == ~least[1] || h == least[0];  // (the least hash and the least complement are one text's)
}

void agree(const std::vector<Problem>& mine, MPI_Comm comm) {
  if (all_true(mine.empty(), comm)) return;
  throw ValidationError(gather_problems(mine, comm));
}

Problem problem_from(const std::exception& e, MPI_Comm comm) {
  return Problem::of(detail::rank_of(comm), "", "", "", e.what());  // its own words: no rule is known
}

}  // namespace dapetra::mpi
