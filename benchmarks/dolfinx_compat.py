"""Every difference between DOLFINx versions that the Python yardsticks meet
(Debian 12's 0.5.2 to sid's 0.11), in one place (scripts/check-compat keeps
it so)."""
from dolfinx import fem


def lagrange_space(msh, degree=1):
    """The scalar Lagrange space of `degree`: fem.FunctionSpace until 0.7,
    fem.functionspace from 0.7 on (the class is no longer built directly)."""
    make = getattr(fem, "functionspace", None) or fem.FunctionSpace
    return make(msh, ("Lagrange", degree))


def vector_lagrange_space(msh, dim, degree=1):
    """The vector Lagrange space of `degree` with `dim` components (block
    size dim, unknowns interleaved per node): fem.VectorFunctionSpace until
    0.7, a value shape given to fem.functionspace from 0.7 on."""
    make = getattr(fem, "functionspace", None)
    if make is not None:
        return make(msh, ("Lagrange", degree, (dim,)))
    return fem.VectorFunctionSpace(msh, ("Lagrange", degree), dim=dim)


def petsc_vector(function):
    """A Function's values as a PETSc Vec (the same memory): .vector until
    0.8, .x.petsc_vec from 0.8 on."""
    x = function.x
    return x.petsc_vec if hasattr(x, "petsc_vec") else function.vector
