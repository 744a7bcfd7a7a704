import Testing

@testable import UnderstudyCore

/// `multipart/form-data` as RFC 7578 (and RFC 2046 §5.1.1 for the delimiters) writes it: what curl `-F` and Python's
/// requests send, which Schemathesis uses for the upload operations of the public documents.
struct MultipartFormDataTests {
    static let body = Array(
        ("preamble, ignored\r\n"
            + "--XyZ\r\n"
            + "Content-Disposition: form-data; name=\"caption\"\r\n\r\n"
            + "Rex at the beach\r\n"
            + "--XyZ  \r\n"
            + "Content-Disposition: form-data; name=\"file\"; filename=\"rex.jpg\"\r\n"
            + "Content-Type: image/jpeg\r\n\r\n"
            + "\u{FF}\u{D8}line one\r\nline two\r\n"
            + "--XyZ--\r\nepilogue").utf8)

    @Test func fieldsAndFilesAreReadInOrder() throws {
        #expect(MultipartFormData.boundary(of: "multipart/form-data; boundary=XyZ") == "XyZ")
        #expect(MultipartFormData.boundary(of: #"Multipart/Form-Data; charset=utf-8; boundary="a b""#) == "a b")
        #expect(MultipartFormData.boundary(of: "multipart/form-data") == nil)
        #expect(MultipartFormData.boundary(of: "multipart/mixed; boundary=x") == nil)
        let fields = try #require(MultipartFormData.fields(Self.body, boundary: "XyZ"))
        #expect(fields.map(\.name) == ["caption", "file"])
        #expect(fields[0].value == "Rex at the beach")
        // A file's line breaks are its own; only the one before the delimiter belongs to the delimiter.
        #expect(fields[1].value == "\u{FF}\u{D8}line one\r\nline two")
    }

    @Test func whatIsNotMultipartIsRefused() {
        // Another boundary, no close delimiter, a part without a name, a delimiter line not ended by CRLF.
        #expect(MultipartFormData.fields(Self.body, boundary: "other") == nil)
        #expect(
            MultipartFormData.fields(
                Array("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1".utf8), boundary: "b") == nil)
        #expect(
            MultipartFormData.fields(Array("--b\r\nContent-Type: text/plain\r\n\r\n1\r\n--b--".utf8), boundary: "b")
                == nil)
        #expect(MultipartFormData.fields(Array("--bx\r\n\r\n--b--".utf8), boundary: "b") == nil)
        #expect(MultipartFormData.fields(Array("--b--\r\n".utf8), boundary: "b")?.isEmpty == true)
    }
}
