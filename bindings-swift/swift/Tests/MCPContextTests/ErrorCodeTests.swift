import XCTest

import MCPContext

final class ErrorCodeTests: XCTestCase {
    /// The hand-written constants and Rust's list of named codes cannot drift apart.
    func testConstantsMatchTheCore() {
        XCTAssertEqual(ErrorCode.allNamed, knownErrorCodes())
        for code in ErrorCode.allNamed {
            XCTAssertNotNil(code.name(), "\(code.code)")
        }
    }

    func testLookups() {
        XCTAssertEqual(ErrorCode.methodNotFound.httpStatus(), 404)
        XCTAssertEqual(ErrorCode.unsupportedProtocolVersion.httpStatus(), 400)
        XCTAssertNil(ErrorCode.internalError.httpStatus())
        XCTAssertEqual(ErrorCode.invalidParams.name(), "Invalid params")
        XCTAssertTrue(ErrorCode.legacyResourceNotFound.mayMeanNotFound())
        XCTAssertFalse(ErrorCode.parseError.mayMeanNotFound())
        // Open: any Int32 is a code; unknown ones have no name.
        let custom = ErrorCode(code: -32099)
        XCTAssertNil(custom.name())
        XCTAssertEqual(custom.description, "-32099")
        XCTAssertEqual(ErrorCode.invalidParams.description, "-32602 (Invalid params)")
    }

    func testProtocolVersion() {
        XCTAssertEqual(protocolVersion(), "2026-07-28")
    }
}
