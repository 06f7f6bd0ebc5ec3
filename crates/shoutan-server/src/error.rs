//! HTTP errors: a status and a JSON body `{"error": code, "message": text}`
//! where `code` is an [`ErrorCode`], a stable word a client can switch on.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use shoutan_store::StoreError;

pub use crate::error_code::ErrorCode;

/// An answer of 4xx or 5xx.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, for clients.
    pub code: ErrorCode,
    /// What was wrong, for people.
    pub message: String,
    /// For 429 and 503: seconds until a retry can succeed.
    pub retry_after: Option<u64>,
}

#[derive(Serialize)]
struct Body<'a> {
    error: ErrorCode,
    message: &'a str,
}

impl ApiError {
    /// An error with this status, code and message.
    pub fn new(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 400: the request is not what the endpoint takes.
    pub fn bad_request(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 404.
    pub fn not_found(what: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, ErrorCode::NotFound, what)
    }

    /// 401: no valid session.
    pub fn unauthorized() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            ErrorCode::LoginRequired,
            "log in first (no valid session cookie)",
        )
    }

    /// 403.
    pub fn forbidden(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, code, message)
    }

    /// 409: the state changed under the request.
    pub fn conflict(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }

    /// 429 with a Retry-After.
    pub fn rate_limited(retry_after_secs: u64) -> ApiError {
        ApiError {
            retry_after: Some(retry_after_secs.max(1)),
            ..ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                ErrorCode::RateLimited,
                format!("too many attempts; try again in {retry_after_secs} s"),
            )
        }
    }

    /// 500: logged, and reported without internals.
    pub fn internal(what: impl std::fmt::Display) -> ApiError {
        tracing::error!("internal error: {what}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::Internal,
            "the server could not complete the request",
        )
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::NameTaken(name) => {
                ApiError::conflict(ErrorCode::NameTaken, format!("the name {name:?} is taken"))
            }
            StoreError::NameConfusable(name) => ApiError::conflict(
                ErrorCode::ConfusableName,
                format!("the name {name:?} looks like an existing player's name"),
            ),
            StoreError::ChallengeGone(id) => ApiError::conflict(
                ErrorCode::ChallengeGone,
                format!("challenge {id} was accepted or withdrawn"),
            ),
            StoreError::AlreadyJoined(id) => ApiError::conflict(
                ErrorCode::AlreadyJoined,
                format!("you have a seat in challenge {id} already"),
            ),
            other => ApiError::internal(other),
        }
    }
}

/// A full pool's refusal: 503, to be asked again in a second.
impl From<crate::blocking::Busy> for ApiError {
    fn from(busy: crate::blocking::Busy) -> ApiError {
        ApiError {
            retry_after: Some(1),
            ..ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                ErrorCode::Busy,
                busy.to_string(),
            )
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        metrics::counter!("shoutan_refusals_total", "code" => self.code.as_str()).increment(1);
        let mut response = (
            self.status,
            Json(Body {
                error: self.code,
                message: &self.message,
            }),
        )
            .into_response();
        if let Some(secs) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}
