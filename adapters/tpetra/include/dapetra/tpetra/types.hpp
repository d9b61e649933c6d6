/// \file
/// dapetra/tpetra/types.hpp: the Tpetra types Dapetra's adapter speaks.
///
/// Tpetra's defaults: local ordinals `int` (Dapetra's 32-bit local index),
/// global ordinals as built (64-bit; `int` in Debian's 17.0). Element types come
/// in two sets: Tpetra objects (views, copies, producers) take double, int and
/// long long, which Debian's Tpetra 13.2 instantiates, and float, which
/// Dapetra instantiates itself (src/eti.cpp) (PEP-3118 'd', 'i', 'q',
/// 'f'); complex cannot be instantiated on that build (its Teuchos lacks
/// complex support). Communication plans (dapetra/mpi) also take complex.
/// Anything else is refused at compile time with a message (see README).
#pragma once

#include <Teuchos_Comm.hpp>
#include <Teuchos_RCP.hpp>
#include <Tpetra_CrsMatrix_fwd.hpp>
#include <Tpetra_Details_DefaultTypes.hpp>
#include <Tpetra_Map_fwd.hpp>
#include <Tpetra_MultiVector_fwd.hpp>
#include <type_traits>

// Calls M(type) for every element type Dapetra's Tpetra objects hold: the
// one list the type check below and the adapter's explicit instantiations
// are made from (the plans' longer list: DAPETRA_FOR_EACH_PLAN_SCALAR).
#define DAPETRA_FOR_EACH_TPETRA_SCALAR(M) \
  M(double)                               \
  M(float)                                \
  M(int)                                  \
  M(long long)

namespace dapetra::tpetra {

/// Tpetra's local ordinal (Dapetra's 32-bit local index).
using LO = Tpetra::Details::DefaultTypes::local_ordinal_type;
/// Tpetra's global ordinal: `long long`, or `int` where Trilinos was built so.
using GO = Tpetra::Details::DefaultTypes::global_ordinal_type;
/// Tpetra's default node.
using Node = Tpetra::Details::DefaultTypes::node_type;
/// The Tpetra Map type of Dapetra's layouts.
using Map = Tpetra::Map<LO, GO, Node>;
/// The Teuchos communicator type.
using Comm = Teuchos::Comm<int>;
/// The Tpetra MultiVector type of Dapetra's views, for an element type.
template <class Scalar>
using MultiVector = Tpetra::MultiVector<Scalar, LO, GO, Node>;
/// The Tpetra matrix type of Dapetra's matrices (double: the scalar of
/// Trilinos' solvers on Debian's build).
using CrsMatrix = Tpetra::CrsMatrix<double, LO, GO, Node>;

#define DAPETRA_SAME_AS_OR(T) std::is_same_v<Scalar, T> ||
/// Whether Dapetra's Tpetra objects hold this element type.
template <class Scalar>
inline constexpr bool is_supported_scalar_v = DAPETRA_FOR_EACH_TPETRA_SCALAR(DAPETRA_SAME_AS_OR) false;
#undef DAPETRA_SAME_AS_OR

/// `T`, for an element type Dapetra's Tpetra objects hold: the return type of
/// a function template declared here and instantiated in the library for
/// those types only, so it is constrained in its declaration (another
/// element type finds no such function at compile time).
template <class Scalar, class T>
using if_supported_scalar_t = std::enable_if_t<is_supported_scalar_v<std::remove_const_t<Scalar>>, T>;

/// Every function templated on the element type checks it at compile time,
/// so another type is a clear compile error rather than a link error.
template <class Scalar>
constexpr void require_supported_scalar() {
  static_assert(is_supported_scalar_v<std::remove_const_t<Scalar>>,
                "Dapetra's Tpetra objects hold double, float, int and long long (PEP-3118 d, f, i, q); complex needs a Trilinos built with complex support (halo and redistribution plans take complex)");
}
}  // namespace dapetra::tpetra
