fn main() {
    println!("antichess");
}
