//! The logical form (action dictionary): the typed contract between the parser and the interpreter.
