//! Exchange formats: what organisers bring in (CSV player lists, OpenGotha
//! files) and take out (OpenGotha, EGF `.h9`, FIDE TRF-16, HTML and
//! Markdown standings and crosstables).

pub mod csv;
pub mod h9;
pub mod opengotha;
pub mod report;
pub mod trf;
