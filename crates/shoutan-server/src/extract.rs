//! Extractors whose failures are JSON errors with codes, like every other
//! answer of the API.

use axum::Json;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::{ApiError, ErrorCode};

/// A JSON body; a malformed or oversized one is a 4xx `malformed` error.
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;
    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(e) => Err(ApiError::new(
                e.status(),
                ErrorCode::Malformed,
                e.body_text(),
            )),
        }
    }
}

/// The query string, read into `T`.
pub struct Params<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(Params(value)),
            Err(e) => Err(ApiError::bad_request(ErrorCode::Malformed, e.body_text())),
        }
    }
}

/// A numeric id in the path.
pub struct Id(pub i64);

impl<S: Send + Sync> FromRequestParts<S> for Id {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(text) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::bad_request(ErrorCode::Malformed, e.body_text()))?;
        text.parse()
            .map(Id)
            .map_err(|_| ApiError::bad_request(ErrorCode::BadId, format!("{text:?} is not an id")))
    }
}
