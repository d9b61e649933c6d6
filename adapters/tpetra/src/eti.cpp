// Tpetra objects of element types a Trilinos build may leave out, which
// Dapetra's views need: float (Debian's 13.2 and 16.1 build none,
// HAVE_TPETRA_INST_FLOAT is off) and long long, which Tpetra instantiates
// only as a global ordinal type (Debian's 17.0 has 32-bit global indices,
// HAVE_TPETRA_INST_INT_LONG_LONG off). Each missing one is instantiated here,
// DistObject, MultiVector and Vector, from Tpetra's own definition headers
// (about 40 s of compile each); a Tpetra that has it is used as it is.
// Complex elements cannot be added the same way on Debian's builds: their
// Teuchos has no ScalarTraits for std::complex (HAVE_TEUCHOS_COMPLEX is
// off), which Tpetra's definitions need.
#include <TpetraCore_config.h>

#if !defined(HAVE_TPETRA_INST_FLOAT) || !defined(HAVE_TPETRA_INST_INT_LONG_LONG)
#include <Tpetra_ConfigDefs.hpp>
#include <Tpetra_DistObject_decl.hpp>
#include <Tpetra_Map.hpp>
#include <Tpetra_MultiVector_decl.hpp>
#include <Tpetra_Vector_decl.hpp>

#include <Tpetra_DistObject_def.hpp>
#include <Tpetra_MultiVector_def.hpp>
#include <Tpetra_Vector_def.hpp>

#include "dapetra/tpetra/types.hpp"

#define DAPETRA_INSTANTIATE_TPETRA_ELEMENT(S)                                                  \
  template class DistObject<S, dapetra::tpetra::LO, dapetra::tpetra::GO, dapetra::tpetra::Node>; \
  template class MultiVector<S, dapetra::tpetra::LO, dapetra::tpetra::GO, dapetra::tpetra::Node>; \
  template class Vector<S, dapetra::tpetra::LO, dapetra::tpetra::GO, dapetra::tpetra::Node>;

namespace Tpetra {
#if !defined(HAVE_TPETRA_INST_FLOAT)
DAPETRA_INSTANTIATE_TPETRA_ELEMENT(float)
#endif
#if !defined(HAVE_TPETRA_INST_INT_LONG_LONG)
DAPETRA_INSTANTIATE_TPETRA_ELEMENT(long long)
#endif
}  // namespace Tpetra
#endif
