/// \file
/// dapetra/tpetra/compat_belos.hpp: the part of compat.hpp that needs Belos'
/// Tpetra headers, apart so that the Tpetra adapter itself does not.
#pragma once

#include <BelosMultiVecTraits_Tpetra.hpp>
#include <Kokkos_Core.hpp>
#include <Trilinos_version.h>

namespace dapetra::tpetra::compat {

/// Belos 16 pools the multivectors its solvers allocate in a function-local
/// static whose constructor registers a Kokkos finalize hook that clears it.
/// Where Kokkos is finalized at exit (std::atexit, as Tpetra does when it
/// initialized Kokkos itself: a Python module, a program without ScopeGuard),
/// a pool made after Kokkos is destroyed before that hook runs, which then
/// writes freed memory (heap corruption, "failed decrement count"). Made
/// first, before Kokkos is initialized, the pool outlives the hook. Call once,
/// before any Tpetra object exists; a no-op where Kokkos is already running
/// and before Trilinos 16.
template <class Scalar, class LO, class GO, class Node>
void make_belos_pool_before_kokkos() {
#if TRILINOS_MAJOR_VERSION >= 16
  if (!Kokkos::is_initialized()) impl::getPool<Scalar, LO, GO, Node>();
#endif
}

}  // namespace dapetra::tpetra::compat
