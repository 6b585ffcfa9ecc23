// LottieError: why a Lottie file cannot be played.

import Foundation

/// Why a Lottie (Bodymovin JSON) file cannot be decoded or built.
public enum LottieError: Error, Equatable, CustomStringConvertible {
    /// The file is not JSON, or a value has the wrong type or is missing; `path` is the JSON path
    /// of the problem, such as `$.layers[2].ks.p.k[0].s`.
    case malformed(path: String, reason: String)
    /// The file cannot be read.
    case unreadable(path: String, reason: String)
    /// The composition is larger, longer or deeper than this player accepts.
    case tooLarge(String)
    /// Building the layers would sample more values than this player accepts.
    case tooComplex(String)

    public var description: String {
        switch self {
        // A JSON path starts with $; anything else names the dotLottie archive or an entry in it.
        case let .malformed(path, reason) where path.hasPrefix("$"): "malformed Lottie JSON at \(path): \(reason)"
        case let .malformed(path, reason): "malformed dotLottie archive at \(path): \(reason)"
        case let .unreadable(path, reason): "cannot read '\(path)': \(reason)"
        case let .tooLarge(reason): "Lottie composition too large: \(reason)"
        case let .tooComplex(reason): reason
        }
    }
}

extension LottieError {
    /// The error for a `DecodingError`, with its coding path written as a JSON path.
    init(_ error: DecodingError) {
        func path(_ keys: [any CodingKey]) -> String {
            var out = "$"
            for key in keys {
                if let i = key.intValue { out += "[\(i)]" } else { out += ".\(key.stringValue)" }
            }
            return out
        }
        switch error {
        case let .typeMismatch(type, context):
            self = .malformed(path: path(context.codingPath), reason: "expected \(Self.name(of: type)); \(context.debugDescription)")
        case let .valueNotFound(type, context):
            self = .malformed(path: path(context.codingPath), reason: "missing \(Self.name(of: type))")
        case let .keyNotFound(key, context):
            self = .malformed(path: path(context.codingPath + [key]), reason: "required key '\(key.stringValue)' is missing")
        case let .dataCorrupted(context):
            self = .malformed(path: path(context.codingPath), reason: Self.reason(context))
        @unknown default:
            self = .malformed(path: "$", reason: "\(error)")
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: "a number"
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        default: "\(type)"
        }
    }

    private static func reason(_ context: DecodingError.Context) -> String {
        if let underlying = context.underlyingError { return "\(context.debugDescription) (\(underlying.localizedDescription))" }
        return context.debugDescription
    }
}
