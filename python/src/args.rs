//! Python arguments as library values, each checked as its parameter
//! (a `ValueError` or `TypeError` naming it).

use std::time::Duration;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use knightsat::encoding::{EncodingConfig, Model, Subtours};
use knightsat::error::Error;
use knightsat::model::board::Leaper;
use knightsat::runtime::interrupt::Interrupt;
use knightsat::sat::Backend;
use knightsat::solve::{Method, Request};
use knightsat::square_names_in;

use crate::errors::{for_parameter, py_result};

/// The encoding configuration named, the formula complete or its
/// subtours left to a loop (`subtours`), as the command's options give it.
pub(crate) fn config(encoding: &str, subtours: Subtours) -> PyResult<EncodingConfig> {
    EncodingConfig::by_name(encoding, subtours).ok_or_else(|| {
        PyValueError::new_err(format!(
            "encoding: unknown encoding '{encoding}' (expected one of: {})",
            EncodingConfig::NAMES.join(", ")
        ))
    })
}

/// The method named.
pub(crate) fn method(name: &str) -> PyResult<Method> {
    Method::ALL
        .into_iter()
        .find(|method| method.name() == name)
        .ok_or_else(|| {
            let names: Vec<_> = Method::ALL.iter().map(|method| method.name()).collect();
            PyValueError::new_err(format!(
                "method: unknown method '{name}' (expected one of: {})",
                names.join(", ")
            ))
        })
}

/// What a call asks of a job, as the command's options would: the method
/// named, whether an encoding or solver was named (the jobs then choose
/// SAT for `auto`), and the request (the encoding's subtours lazy, the
/// solver by name, the library's defaults for what is not named, the time
/// limit in seconds, armed to be interrupted).
pub(crate) struct Asked {
    pub(crate) method: Method,
    pub(crate) sat_named: bool,
    pub(crate) request: Request,
}

/// What `method_name` (`"auto"` for none), `encoding`, `solver` and
/// `timeout` ask, each checked as its parameter.
pub(crate) fn asked(
    method_name: Option<&Bound<'_, PyAny>>,
    encoding: Option<&Bound<'_, PyAny>>,
    solver: Option<&Bound<'_, PyAny>>,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<Asked> {
    let method_name = text_arg(method_name, "method", "a method's name (a str)")?;
    let method_name = method_name.as_deref().unwrap_or("auto");
    let encoding = text_arg(encoding, "encoding", "an encoding's name (a str)")?;
    let encoding = encoding.as_deref();
    let solver = text_arg(solver, "solver", "a solver's name (a str)")?;
    let solver = solver.as_deref();
    let timeout = seconds_arg(timeout, "timeout")?;
    let mut request = Request {
        timeout: time_limit_of(timeout)?,
        interrupt: Interrupt::new(),
        ..Request::default()
    };
    if let Some(encoding) = encoding {
        request.config = config(encoding, Subtours::FOR_SOLVING)?;
    }
    if let Some(solver) = solver {
        request.backend = Python::attach(|py| {
            for_parameter(
                py,
                "solver",
                py_result(Backend::from_name(solver, Vec::new())),
            )
        })?;
    }
    Ok(Asked {
        method: method(method_name)?,
        sat_named: encoding.is_some() || solver.is_some(),
        request,
    })
}

/// A whole number given to the parameter `name`, `min` or more; a
/// `ValueError` naming the parameter and what it takes otherwise (a bool,
/// a float, a negative number, one past 2**64 - 1).
pub(crate) fn whole_number(
    value: &Bound<'_, PyAny>,
    name: &str,
    min: u64,
    what: &str,
) -> PyResult<u64> {
    let refuse = || {
        PyValueError::new_err(format!(
            "{name}: {} is not {what} (a whole number from {min} to 2**64 - 1)",
            shown_value(value)
        ))
    };
    number_not_bool::<u64>(value)
        .filter(|&number| number >= min)
        .ok_or_else(refuse)
}

/// `value` as a number of type `T`, unless it is a `bool` (an `int` to
/// Python, never a count or a time here) or not such a number.
pub(crate) fn number_not_bool<T: for<'a, 'py> FromPyObject<'a, 'py>>(
    value: &Bound<'_, PyAny>,
) -> Option<T> {
    if value.is_instance_of::<pyo3::types::PyBool>() {
        return None;
    }
    value.extract().ok()
}

/// [`whole_number`] for a parameter that may be `None`.
pub(crate) fn optional_whole_number(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    min: u64,
    what: &str,
) -> PyResult<Option<u64>> {
    value
        .filter(|value| !value.is_none())
        .map(|value| whole_number(value, name, min, what))
        .transpose()
}

/// The text given to the parameter `name` (`None` for none), or a
/// `TypeError` naming it and what it `takes`: `PyO3`'s own says only
/// "'int' object is not an instance of 'str'".
pub(crate) fn text_arg(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    takes: &str,
) -> PyResult<Option<String>> {
    let Some(value) = value.filter(|value| !value.is_none()) else {
        return Ok(None);
    };
    value
        .extract::<String>()
        .map(Some)
        .map_err(|_| PyTypeError::new_err(format!("{name}: {} is not {takes}", shown_value(value))))
}

/// The flag given to the parameter `name` (`False` for none), or a
/// `TypeError` naming it: only `True` or `False`.
pub(crate) fn flag_arg(value: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<bool> {
    let Some(value) = value.filter(|value| !value.is_none()) else {
        return Ok(false);
    };
    value
        .cast::<pyo3::types::PyBool>()
        .map(pyo3::types::PyBoolMethods::is_true)
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "{name}: {} is not True or False",
                shown_value(value)
            ))
        })
}

/// Seconds given to the parameter `name` (`None` for no limit): an `int`
/// or a `float`; a `TypeError` naming it otherwise.
pub(crate) fn seconds_arg(value: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<f64>> {
    let Some(value) = value.filter(|value| !value.is_none()) else {
        return Ok(None);
    };
    let refuse = || {
        PyTypeError::new_err(format!(
            "{name}: {} is not a number of seconds",
            shown_value(value)
        ))
    };
    number_not_bool::<f64>(value).map(Some).ok_or_else(refuse)
}

/// What a square name parameter takes.
pub(crate) const A_SQUARE: &str = "a square name such as 'a1'";

/// The leaper `leaper=` names: `(a, b)` (any pair of whole numbers) or
/// the text `"a,b"`.
pub(crate) fn leaper_of(value: &Bound<'_, PyAny>) -> PyResult<Leaper> {
    if let Ok(text) = value.extract::<String>() {
        return py_result(text.parse().map_err(Error::from));
    }
    let refuse = || {
        PyValueError::new_err(format!(
            "leaper: {} is not a leaper: give two whole numbers, (1, 2) for the knight, or the text \"1,2\"",
            shown_value(value)
        ))
    };
    let items = value
        .try_iter()
        .map_err(|_| refuse())?
        .collect::<PyResult<Vec<_>>>()
        .map_err(|_| refuse())?;
    let [a, b] = items.as_slice() else {
        return Err(refuse());
    };
    let length = |item: &Bound<'_, PyAny>| whole_number(item, "leaper", 0, "a leap's length");
    let (a, b) = (
        length(a).map_err(|_| refuse())?,
        length(b).map_err(|_| refuse())?,
    );
    let (a, b) = (usize::try_from(a), usize::try_from(b));
    let (Ok(a), Ok(b)) = (a, b) else {
        return Err(refuse());
    };
    py_result(Leaper::new(a, b).map_err(Error::from))
}

/// The clues `clues=` gives, as `N=SQUARE` texts: a dict of move numbers
/// to square names, or a list of such texts.
pub(crate) fn clue_texts(value: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(dict) = value.cast::<pyo3::types::PyDict>() {
        let mut pairs = Vec::with_capacity(dict.len());
        for (number, square) in dict.iter() {
            let refuse_number = || {
                PyValueError::new_err(format!(
                    "clues: {} is not a move number (from 1)",
                    shown_value(&number)
                ))
            };
            if number.is_instance_of::<pyo3::types::PyBool>() {
                return Err(refuse_number());
            }
            let move_number: i64 = number.extract().map_err(|_| refuse_number())?;
            let square: String = square.extract().map_err(|_| {
                PyValueError::new_err(format!(
                    "clues: move {move_number} is given {}, not a square's name",
                    shown_value(&square)
                ))
            })?;
            pairs.push((move_number, square));
        }
        pairs.sort();
        return Ok(pairs
            .into_iter()
            .map(|(number, square)| format!("{number}={square}"))
            .collect());
    }
    value.extract::<Vec<String>>().map_err(|_| {
        PyValueError::new_err(format!(
            "clues: {} is not clues: give a dict {{move: square}} or a list of \"N=SQUARE\" texts",
            shown_value(value)
        ))
    })
}

/// A time limit in seconds, as the library takes it; a `ValueError`
/// naming `timeout` otherwise.
pub(crate) fn time_limit_of(timeout: Option<f64>) -> PyResult<Option<Duration>> {
    timeout
        .map(|seconds| {
            knightsat::runtime::deadline::time_limit(seconds)
                .map_err(|error| PyValueError::new_err(format!("timeout: {error}")))
        })
        .transpose()
}

/// The literals `model` gives: a list of DIMACS literals (`PySAT`'s
/// `get_model()`; a 0 only ends a line) or a dict from variable numbers to
/// `bool`s. Anything else is a `ValueError` saying so, ending with `note`
/// (which variables the formula has, where that is the rule).
pub(crate) fn literals_of(model: &Bound<'_, PyAny>, note: &str) -> PyResult<Vec<i64>> {
    let number = |item: &Bound<'_, PyAny>, what: &str| -> PyResult<i64> {
        if item.is_instance_of::<pyo3::types::PyBool>() {
            return Err(PyValueError::new_err(format!(
                "model: {what} {item} is a bool, not a literal"
            )));
        }
        item.extract::<i64>()
            .ok()
            .filter(|&lit| lit != i64::MIN)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "model: {what} {} is not a variable's number{note}",
                    shown_value(item)
                ))
            })
    };
    if let Ok(dict) = model.cast::<pyo3::types::PyDict>() {
        let mut literals = Vec::with_capacity(dict.len());
        for (key, value) in dict.iter() {
            let var = number(&key, "the key")?;
            let value = value.extract::<bool>().map_err(|_| {
                PyValueError::new_err(format!(
                    "model: variable {var} is given {}, not True or False",
                    shown_value(&value)
                ))
            })?;
            if var <= 0 {
                return Err(PyValueError::new_err(format!(
                    "model: {var} names no variable{note}"
                )));
            }
            literals.push(if value { var } else { -var });
        }
        return Ok(literals);
    }
    let items = model.try_iter().map_err(|_| {
        PyValueError::new_err(
            "model: a list of DIMACS literals (as PySAT's get_model() gives) or a dict {variable: bool}",
        )
    })?;
    items.map(|item| number(&item?, "the literal")).collect()
}

/// The model `model` gives for a formula of `vars` variables numbered 1
/// to `vars` (see [`literals_of`]): a variable given both values, or a
/// number that names no variable, is a `ValueError` saying so.
pub(crate) fn model_of(model: &Bound<'_, PyAny>, vars: usize) -> PyResult<Model> {
    let literals = literals_of(model, &format!(": the formula has variables 1 to {vars}"))?;
    py_result(Model::from_dimacs(literals, vars))
}

/// A value as an error shows it: its repr, cut short.
pub(crate) fn shown_value(value: &Bound<'_, PyAny>) -> String {
    let repr = value
        .repr()
        .map_or_else(|_| "?".to_string(), |repr| repr.to_string());
    if repr.chars().count() > 40 {
        format!("{}…", repr.chars().take(40).collect::<String>())
    } else {
        repr
    }
}

/// Square names given to the parameter `name`: a list (any iterable) of
/// names, or one string of names separated by spaces or commas; a
/// `ValueError` naming the parameter otherwise.
pub(crate) fn square_names_of(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<String>> {
    if let Ok(text) = value.extract::<String>() {
        return Ok(square_names_in(&text).map(str::to_string).collect());
    }
    let refuse = || {
        PyValueError::new_err(format!(
            "{name}: {} is not square names: give a list of names or one string \"a1 c2 …\"",
            shown_value(value)
        ))
    };
    let mut names = Vec::new();
    for item in value.try_iter().map_err(|_| refuse())? {
        let item = item?;
        names.push(item.extract::<String>().map_err(|_| {
            PyValueError::new_err(format!(
                "{name}: {} is not a square's name",
                shown_value(&item)
            ))
        })?);
    }
    Ok(names)
}
