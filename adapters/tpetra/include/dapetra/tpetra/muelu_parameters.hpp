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
/// Teuchos::updateParametersFromXmlFile).
#pragma once

#include <Teuchos_ParameterList.hpp>

namespace dapetra::tpetra {

/// Smoothed aggregation with Chebyshev smoothing (symmetric, as CG needs), at
/// most 100 rows on the coarsest level, smoothed there by four symmetric
/// Gauss-Seidel sweeps; MueLu prints nothing.
/// @return the parameter list.
Teuchos::ParameterList muelu_parameters_for_cg();

}  // namespace dapetra::tpetra
