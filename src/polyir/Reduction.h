// The statement operators as one table: how each is written, its identity, and how it
// combines two values, in the interpreter and in generated C. Sema, the interpreter,
// the C reference and the CUDA/OpenCL printers all read it, so a new operator is one
// row here.
#pragma once
#include <string>

#include "polyir/Ast.h"

namespace polyfuse {

struct ReduceKind {
  ReduceOp op;
  const char* name;      // in generated helper names: pf_block_reduce_<name>
  const char* text;      // the TC operator; the '!' form appends '!'
  double identity;       // what a '!' reduction starts from
  const char* identityC; // the identity in C: a number, or a macro (INFINITY)
  const char* infix;     // C operator combining two values ("+", "*"), or null
  const char* function;  // else the C function ("fmax", or a pf_ helper codegen defines); null for Assign
};

const ReduceKind& reduceKind(ReduceOp op);

// The reductions (every operator but Assign), in table order.
const ReduceKind* reductionsBegin();
const ReduceKind* reductionsEnd();

// IEEE 754-2019 maximum and minimum: a NaN operand gives NaN, and -0 < +0.
double ieeeMaximum(double a, double b);
double ieeeMinimum(double a, double b);

// acc OP v, in double, as the interpreter computes it.
double combineValues(ReduceOp op, double acc, double v);

}  // namespace polyfuse
