// Tpetra objects of float elements. Debian's Trilinos 13.2 does not build
// them (HAVE_TPETRA_INST_FLOAT is off), so Dapetra instantiates DistObject,
// MultiVector and Vector for float here, from Tpetra's own definition headers
// (about 40 s of compile, once). A Tpetra that instantiates float itself is
// used as it is. Complex elements cannot be added the same way on that build:
// its Teuchos has no ScalarTraits for std::complex (HAVE_TEUCHOS_COMPLEX is
// off), which Tpetra's definitions need.
#include <TpetraCore_config.h>

#if !defined(HAVE_TPETRA_INST_FLOAT)
#include <Tpetra_ConfigDefs.hpp>
#include <Tpetra_DistObject_decl.hpp>
#include <Tpetra_Map.hpp>
#include <Tpetra_MultiVector_decl.hpp>
#include <Tpetra_Vector_decl.hpp>

#include <Tpetra_DistObject_def.hpp>
#include <Tpetra_MultiVector_def.hpp>
#include <Tpetra_Vector_def.hpp>

#include "dapetra/tpetra/types.hpp"

namespace Tpetra {
template class DistObject<float, dapetra::tpetra::LO, dapetra::tpetra::GO, dapetra::tpetra::Node>;
template class MultiVector<float, dapetra::tpetra::LO, dapetra::tpetra::GO, dapetra::tpetra::Node>;
template class Vector<float, dapetra::tpetra::LO, dapetra::tpetra::GO, dapetra::tpetra::Node>;
}  // namespace Tpetra
#endif
