/// \file
/// dapetra/mpi/scalar.hpp: the element types communication plans move.
///
/// Plans only move and combine the caller's memory, so they take every type
/// with a PEP-3118 format Dapetra knows: float, double, int, long long,
/// std::complex<float> and std::complex<double> ('f', 'd', 'i', 'q', 'Zf',
/// 'Zd'). Another type is refused at compile time with a message.
#pragma once

#include <complex>
#include <type_traits>

// Calls M(type) for every element type the plans are compiled for: the one
// list the type check below and the explicit instantiations are made from.
#define DAPETRA_FOR_EACH_PLAN_SCALAR(M) \
  M(double)                             \
  M(float)                              \
  M(int)                                \
  M(long long)                          \
  M(std::complex<float>)                \
  M(std::complex<double>)

namespace dapetra::mpi {

#define DAPETRA_SAME_AS_OR(T) std::is_same_v<Scalar, T> ||
/// Whether the plans move this element type.
template <class Scalar>
inline constexpr bool is_plan_scalar_v = DAPETRA_FOR_EACH_PLAN_SCALAR(DAPETRA_SAME_AS_OR) false;
#undef DAPETRA_SAME_AS_OR

/// Refuses, at compile time with a message, an element type the plans do not move.
template <class Scalar>
constexpr void require_plan_scalar() {
  static_assert(is_plan_scalar_v<std::remove_const_t<Scalar>>,
                "Dapetra's communication plans move float, double, int, long long, std::complex<float> and "
                "std::complex<double> (PEP-3118 f, d, i, q, Zf, Zd)");
}

}  // namespace dapetra::mpi
