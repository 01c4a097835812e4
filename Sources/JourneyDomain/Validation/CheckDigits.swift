/// The modulo-11 check digits of Brazilian CPF (11 digits) and CNPJ (14 digits) numbers.
///
/// Numbers made of one repeated digit (`00000000000`, `11111111111`, …) pass the arithmetic but
/// are not issued, so they are refused too.
public enum CheckDigits {
    /// True when `number` is 11 ASCII digits whose last two are its CPF check digits.
    public static func isValidCPF(_ number: String) -> Bool {
        guard let digits = digits(number), digits.count == 11, Set(digits).count > 1 else { return false }
        return cpfDigits(Array(digits.prefix(9))) == Array(digits.suffix(2))
    }

    /// True when `number` is 14 ASCII digits whose last two are its CNPJ check digits.
    public static func isValidCNPJ(_ number: String) -> Bool {
        guard let digits = digits(number), digits.count == 14, Set(digits).count > 1 else { return false }
        return cnpjDigits(Array(digits.prefix(12))) == Array(digits.suffix(2))
    }

    /// The CPF whose first nine digits are `base` (nine ASCII digits), e.g. `123456789` → `12345678909`.
    public static func cpf(completing base: String) -> String? {
        guard let digits = digits(base), digits.count == 9 else { return nil }
        return base + cpfDigits(digits).map(String.init).joined()
    }

    /// The CNPJ whose first twelve digits are `base` (twelve ASCII digits).
    public static func cnpj(completing base: String) -> String? {
        guard let digits = digits(base), digits.count == 12 else { return nil }
        return base + cnpjDigits(digits).map(String.init).joined()
    }

    /// A CPF with nine random leading digits (demo and benchmark subjects).
    public static func randomCPF<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        var base = ""
        repeat {
            base = String((0..<9).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
        } while Set(base).count == 1
        return cpf(completing: base)!
    }

    /// A CPF with nine random leading digits, from the system generator.
    public static func randomCPF() -> String {
        var generator = SystemRandomNumberGenerator()
        return randomCPF(using: &generator)
    }

    private static func digits(_ number: String) -> [Int]? {
        var result: [Int] = []
        for scalar in number.unicodeScalars {
            guard ("0"..."9").contains(scalar) else { return nil }
            result.append(Int(scalar.value - 48))
        }
        return result
    }

    /// CPF: weights 10…2 then 11…2; remainder below 2 gives 0, else 11 minus it.
    private static func cpfDigits(_ base: [Int]) -> [Int] {
        let first = digit(base, weights: Array((2...10).reversed()))
        let second = digit(base + [first], weights: Array((2...11).reversed()))
        return [first, second]
    }

    /// CNPJ: weights 5…2, 9…2 then 6…2, 9…2; the same remainder rule.
    private static func cnpjDigits(_ base: [Int]) -> [Int] {
        let first = digit(base, weights: [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
        let second = digit(base + [first], weights: [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
        return [first, second]
    }

    private static func digit(_ digits: [Int], weights: [Int]) -> Int {
        let remainder = zip(digits, weights).reduce(0) { $0 + $1.0 * $1.1 } % 11
        return remainder < 2 ? 0 : 11 - remainder
    }
}
