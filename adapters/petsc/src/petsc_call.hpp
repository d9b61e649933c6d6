// PETSc calls inside the adapter: a failed call becomes an exception naming
// it, and every PETSc object answers for its communicator the same way.
#pragma once

#include <petscsys.h>

#include <stdexcept>
#include <string>

namespace dapetra::petsc {

inline void check(PetscErrorCode code, const char* call) {
  if (code != 0) throw std::runtime_error(std::string("dapetra::petsc: ") + call + " failed (PETSc error " + std::to_string(code) + ")");
}

template <class Object>
MPI_Comm comm_of(Object object) {
  MPI_Comm comm = MPI_COMM_NULL;
  check(PetscObjectGetComm(reinterpret_cast<PetscObject>(object), &comm), "PetscObjectGetComm");
  return comm;
}

}  // namespace dapetra::petsc
