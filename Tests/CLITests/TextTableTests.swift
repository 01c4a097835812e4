import CLI
import Testing

@Suite("Text tables")
struct TextTableTests {
    @Test func alignsColumnsUnderAnUnderlinedHeader() {
        var table = TextTable(columns: ["Stream", TextTable.Column("Events", alignment: .right), "Last type"])
        table.append(["journey-1", "12", "Started"])
        table.append(["j-2", "1024", ""])
        #expect(
            table.render() == """
                Stream     Events  Last type
                ---------  ------  ---------
                journey-1      12  Started
                j-2          1024

                """)
    }

    @Test func padsShortRowsDropsExtraCellsAndFlattensLineBreaks() {
        var table = TextTable(columns: ["a", "b"])
        table.append(["1"])
        table.append(["2", "x\ny", "ignored"])
        #expect(table.rows == [["1", ""], ["2", "x\ny"]])
        #expect(table.render() == "a  b\n-  ---\n1\n2  x y\n")
    }

    @Test func countsCharactersNotBytes() {
        var table = TextTable(columns: ["name", "n"])
        table.append(["São Paulo", "1"])
        #expect(table.render().split(separator: "\n")[2] == "São Paulo  1")
    }

    @Test func rendersCSVWithQuoting() {
        var table = TextTable(columns: ["code", TextTable.Column("note", alignment: .right)])
        table.append(["E1", "plain"])
        table.append(["E2", #"says "hi", twice"#])
        table.append(["E3", "two\nlines"])
        #expect(table.csv() == "code,note\nE1,plain\nE2,\"says \"\"hi\"\", twice\"\nE3,\"two\nlines\"\n")
    }
}
