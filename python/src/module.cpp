// cuteref._cuteref: the extension module of the Python package. Model errors become
// cuteref.Error (the diagnostic and, where the model names one, the 1-based column).
#include <exception>
#include <string>

#include <nanobind/nanobind.h>

#include "bindings.hpp"
#include "error.hpp"

namespace cuteref::python {

// The column a diagnostic starts with ("column 7: ..."), or -1.
long column_of(const std::string& message) {
  static const std::string prefix = "column ";
  if (message.rfind(prefix, 0) != 0) return -1;
  std::size_t k = prefix.size();
  long column = 0;
  bool digits = false;
  while (k < message.size() && message[k] >= '0' && message[k] <= '9') {
    column = column * 10 + (message[k] - '0');
    digits = true;
    ++k;
  }
  return digits && k < message.size() && message[k] == ':' ? column : -1;
}

namespace {

// The Python classes, set once by cuteref/__init__.py; kept alive for the interpreter's
// lifetime (never released: the translator may run during shutdown).
PyObject* error_class = nullptr;
PyObject* pycute_error_class = nullptr;

void raise(PyObject* cls, const std::string& message, long column) {
  if (cls == nullptr) cls = PyExc_RuntimeError;
  PyObject* col = column >= 0 ? PyLong_FromLong(column) : (Py_INCREF(Py_None), Py_None);
  PyObject* args = Py_BuildValue("(sN)", message.c_str(), col);
  PyErr_SetObject(cls, args);
  Py_XDECREF(args);
}

}  // namespace

void bind_errors(nb::module_& m) {
  m.def("_set_error_classes", [](nb::handle error, nb::handle pycute_error) {
    Py_XINCREF(error.ptr());
    Py_XINCREF(pycute_error.ptr());
    error_class = error.ptr();
    pycute_error_class = pycute_error.ptr();
  });
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const PycuteFailure& e) {
      raise(pycute_error_class, e.what(), column_of(e.what()));
    } catch (const ParseError& e) {
      raise(error_class, e.what(), static_cast<long>(e.column()));
    } catch (const Error& e) {
      raise(error_class, e.what(), column_of(e.what()));
    }
  });
}

}  // namespace cuteref::python

NB_MODULE(_cuteref, m) {
  m.doc() = "cuteref's reference model of CuTe's layout algebra (the C++ model, bound with nanobind)";
  // Values held by Python-level caches and globals (cuteref._, Hypothesis' example
  // databases) may outlive the module at interpreter exit; that is not a leak to report.
  nanobind::set_leak_warnings(false);
  cuteref::python::bind_errors(m);
  cuteref::python::bind_core(m);
  cuteref::python::bind_pycute(m);
}
