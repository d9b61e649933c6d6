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


def assemble_block_system(a, a_p, L, bcs):
    """K, P and b of a two-field problem as one PETSc Mat each and one Vec,
    every process's rows in blocks (its first field's, then its second's):
    assemble_matrix_block / assemble_vector_block until 0.9, assemble_matrix
    and assemble_vector with kind="mpi" (lifting and BCs by block) from 0.10."""
    from petsc4py import PETSc
    import dolfinx.fem.petsc as fp
    if hasattr(fp, "assemble_matrix_block"):
        K = fp.assemble_matrix_block(a, bcs=bcs)
        P = fp.assemble_matrix_block(a_p, bcs=bcs)
        b = fp.assemble_vector_block(L, a, bcs=bcs)
    else:
        K = fp.assemble_matrix(a, bcs=bcs, kind="mpi")
        P = fp.assemble_matrix(a_p, bcs=bcs, kind="mpi")
        b = fp.assemble_vector(L, kind="mpi")
        fp.apply_lifting(b, a, bcs=fem.bcs_by_block(fem.extract_function_spaces(a, 1), bcs))
        b.ghostUpdate(addv=PETSc.InsertMode.ADD, mode=PETSc.ScatterMode.REVERSE)
        fp.set_bc(b, fem.bcs_by_block(fem.extract_function_spaces(L), bcs))
    K.assemble()
    P.assemble()
    return K, P, b


def assemble_nested_matrix(a, bcs):
    """A two-field form's matrix as PETSc's MatNest, one Mat per block, each
    in its own fields' numbering (each process's owned rows of field i, its
    columns field j's global indices; a None form gives no block):
    assemble_matrix_nest until 0.9, assemble_matrix with kind="nest" from 0.10."""
    import dolfinx.fem.petsc as fp
    if hasattr(fp, "assemble_matrix_nest"):
        A = fp.assemble_matrix_nest(a, bcs=bcs)
    else:
        A = fp.assemble_matrix(a, bcs=bcs, kind="nest")
    A.assemble()
    return A
