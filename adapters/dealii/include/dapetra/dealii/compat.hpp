/// \file
/// dapetra/dealii/compat.hpp: the deal.II calls whose form changed between
/// the releases Dapetra meets, in one place, so that code written against
/// both builds without deprecation warnings and no other file names a
/// version-specific call (scripts/check-compat keeps it so). Compiled and
/// tested against Debian 12's deal.II 9.4.1 and Debian sid's 9.7.1.
///
/// The adapter itself needs none of these; they serve programs that set up
/// a problem the way deal.II's tutorials do (Dapetra's step-40 example and
/// tests among them). Not collective unless a function says so.
#pragma once

#include <deal.II/base/config.h>
#include <deal.II/base/index_set.h>
#include <deal.II/lac/affine_constraints.h>
#ifdef DEAL_II_WITH_PETSC
#include <deal.II/lac/petsc_solver.h>
#include <deal.II/lac/solver_control.h>
#endif

#include <mpi.h>

namespace dapetra::dealii::compat {

/// Empties `constraints` and sets the dofs it may hold constraints for.
/// deal.II 9.6 added reinit(owned, relevant), which also knows the owned
/// dofs, and 9.7 deprecates the one-set form; before 9.6 only the relevant
/// set is given.
/// @param constraints the constraints to reset.
/// @param owned this process's owned dofs.
/// @param relevant its locally relevant dofs (owned and ghosts).
template <typename Number>
void reinit_constraints(::dealii::AffineConstraints<Number>& constraints, const ::dealii::IndexSet& owned,
                        const ::dealii::IndexSet& relevant) {
#if DEAL_II_VERSION_GTE(9, 6, 0)
  constraints.reinit(owned, relevant);
#else
  (void)owned;
  constraints.reinit(relevant);
#endif
}

#ifdef DEAL_II_WITH_PETSC
/// deal.II's PETSc CG. 9.4 needs the system's communicator; newer releases
/// take it from the matrix, and 9.7 ignores and deprecates the argument.
/// Both forms exist in 9.6, where the switch is made (9.4 and 9.7 tested).
/// @param control the stopping rule, kept by reference.
/// @param comm the communicator the system lives on (passed on before 9.6 only).
/// @return the solver, built in place (it cannot be copied).
inline ::dealii::PETScWrappers::SolverCG petsc_cg(::dealii::SolverControl& control, MPI_Comm comm) {
#if DEAL_II_VERSION_GTE(9, 6, 0)
  (void)comm;
  return ::dealii::PETScWrappers::SolverCG(control);
#else
  return ::dealii::PETScWrappers::SolverCG(control, comm);
#endif
}
#endif

}  // namespace dapetra::dealii::compat
