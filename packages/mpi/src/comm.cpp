#include "comm.hpp"

#include <mutex>

#include "dapetra/process_grid.hpp"

namespace dapetra::mpi::detail {
namespace {

// The attribute holds a heap-allocated shared_ptr; MPI deletes it (through
// this callback) when the caller's communicator is freed, or at MPI_Finalize
// for MPI_COMM_WORLD and MPI_COMM_SELF.
int release(MPI_Comm, int, void* value, void*) {
  delete static_cast<std::shared_ptr<InnerComm>*>(value);
  return MPI_SUCCESS;
}

int keyval() {
  static int key = MPI_KEYVAL_INVALID;
  static std::once_flag once;
  std::call_once(once, [] { MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, release, &key, nullptr); });
  return key;
}

}  // namespace

InnerComm::~InnerComm() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (auto& [key, line] : lines_) MPI_Comm_free(&line);
  if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
}

MPI_Comm InnerComm::grid_line(const std::vector<int>& shape, int axis) {
  std::lock_guard<std::mutex> lock(lines_mutex_);
  auto key = std::make_pair(shape, axis);
  if (auto it = lines_.find(key); it != lines_.end()) return it->second;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const ProcessGrid grid(shape);
  std::vector<int> coords = grid.coords_of(rank);
  const int along = coords[static_cast<std::size_t>(axis)];
  coords[static_cast<std::size_t>(axis)] = 0;  // the line's name: its first process
  MPI_Comm line = MPI_COMM_NULL;
  MPI_Comm_split(comm, grid.rank_of(coords), along, &line);
  return lines_.emplace(std::move(key), line).first->second;
}

std::shared_ptr<InnerComm> inner_comm(MPI_Comm user) {
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(user, keyval(), &value, &found);
  if (found) return *static_cast<std::shared_ptr<InnerComm>*>(value);
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(user, &dup);
  auto inner = std::make_shared<InnerComm>(dup);
  MPI_Comm_set_attr(user, keyval(), new std::shared_ptr<InnerComm>(inner));
  return inner;
}

}  // namespace dapetra::mpi::detail
