// Test helper: MPI libraries proven to hang under MPI_THREAD_MULTIPLE, found
// by version at run time, before MPI_Init (MPI_Get_library_version may be
// called then). The proof is tests/mpi/threads_pattern.cpp, the threaded
// test's message pattern in plain MPI, with no Dapetra in it; the counts are
// in docs/packaging.md. Only versions shown to hang are listed.
#pragma once

#include <mpi.h>

#include <string>

namespace dapetra::testing {

struct ThreadFault {
  std::string version;  // the library's version line ("" when none is known)
  std::string what;     // what hangs, and where it was shown
  std::string avoided;  // the MCA setting that runs clear of it
};

// The known fault of this MPI library with several threads in MPI at once, if any.
inline ThreadFault known_thread_fault() {
  char buffer[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(buffer, &length);
  const std::string version(buffer, static_cast<std::size_t>(length));
  // threads_pattern at 3 processes on 2 loaded cores, Debian sid, 2026-11-26:
  // 7 of 20 runs hung (every thread in MPI_Waitall, ompi_sync_wait_mt), 1 of 15
  // with --mca pml ob1 --mca btl self,sm, none of 20 with --mca btl self,tcp;
  // none of 20 under Open MPI 4.1.4.
  if (version.rfind("Open MPI v6.0.0rc2", 0) == 0)
    return {"Open MPI v6.0.0rc2",
            "several threads waiting in MPI_Waitall hang now and then over its shared-memory transport (sm)",
            "self,tcp"};
  return {};
}

}  // namespace dapetra::testing
