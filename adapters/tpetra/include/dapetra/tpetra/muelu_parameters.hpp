/// \file
/// dapetra/tpetra/muelu_parameters.hpp: MueLu settings that work on Debian's Trilinos for CG.
///
/// MueLu's defaults do not suit CG on Debian's Trilinos 13.2: its coarsest
/// level goes to Amesos2's KLU2, which on a coarse matrix spread over more
/// than one process makes CG stall (1,000 iterations without converging at
/// 2 processes on a 2-D Laplacian that takes 25 with the list below). This
/// list, for symmetric positive definite matrices (MueLu's own parameter
/// names; the Dapetra examples, dapetra-fem and Python's dapetra.solve use
/// it), smooths the coarsest level instead. It needs Teuchos only: the
/// caller passes it to MueLu::CreateTpetraPreconditioner, after any
/// overrides (ParameterList::setParameters, or
/// Teuchos::updateParametersFromXmlFile); make_preconditioner drops the
/// coarse smoother's parameters when the overrides name another coarse type.
#pragma once

#include <Teuchos_ParameterList.hpp>

namespace dapetra::tpetra {

/// Smoothed aggregation with Chebyshev smoothing (symmetric, as CG needs), at
/// most 100 rows on the coarsest level, smoothed there by four symmetric
/// Gauss-Seidel sweeps; MueLu prints nothing. Aggregation drops couplings
/// weaker than 5 %, Chebyshev aims at the upper seventh of the spectrum
/// (lambda_max / 7) with a polynomial of degree 2, and the restriction is
/// applied as P^T, not formed: one set that took fewer iterations on every
/// problem measured, at 2 processes, with CG's time the same or less but on
/// deal.II's Q1 Laplace in 3-D (docs/multifield.md, "Defaults that serve",
/// which has the figures and ML's). For several unknowns per node
/// (interleaved), MueLu is told the number of equations, and Chebyshev's
/// degree is 3 instead of Ifpack2's default 1: on 3-D elasticity with the rigid-body modes
/// that took MueLu from 28 to 14 iterations at 10^4 unknowns and from 38 to
/// 22 at 10^6 (2 processes), set-up and solve 6.0 s either way at 10^6,
/// within 1.5 times the iterations of PETSc's GAMG (14 and 51).
/// @param equations_per_node unknowns per node (1 for a scalar problem).
Teuchos::ParameterList muelu_parameters_for_cg(int equations_per_node = 1);

}  // namespace dapetra::tpetra
