#!/usr/bin/python3
# Makes the text rules' test corpus: screenshot-like PNGs (forms, terminals, tables, tickets; light
# and dark themes and low-contrast ones, grey on white and grey on black; fifteen fonts from
# Debian's font packages at sizes from 7 pt) holding true secrets (card numbers with spaces, dashes,
# dots, no-break spaces or nothing between their groups, e-mail addresses, IBANs, API keys, some
# split into groups by spaces) and near-misses that look most like them (Luhn-invalid numbers, UUIDs,
# hashes, phone numbers, parcel tracking numbers, order numbers, dates, IBANs with a wrong
# checksum), and truth.json with each one's kind and the box of its ink.
#
# A new seed each run unless --seed gives one: the seed is printed and kept in truth.json, and the
# same seed gives the same files. scripts/text-recall.py measures fresh corpora; the committed corpus
# (Tests/TextTests/Corpus, the recall test's: deterministic) was made by this script's earlier
# version, with seed 28 (light and dark themes, seven fonts at 12-18 px).
#
# usage: scripts/text-corpus.py OUTDIR [--count N] [--seed S]
# Needs python3-pil and the font packages scripts/install-deps.sh lists for it.
import argparse
import json
import os
import random
import string

from PIL import Image, ImageDraw, ImageFont

FONTS = {
    "DejaVu Sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "DejaVu Serif": "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "Liberation Sans": "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
    "Liberation Serif": "/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf",
    "Cantarell": "/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf",
    "Arimo": "/usr/share/fonts/truetype/croscore/Arimo-Regular.ttf",
    "Tinos": "/usr/share/fonts/truetype/croscore/Tinos-Regular.ttf",
    "Open Sans": "/usr/share/fonts/truetype/open-sans/OpenSans-Regular.ttf",
    "DejaVu Sans Mono": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    "Liberation Mono": "/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf",
    "Noto Mono": "/usr/share/fonts/truetype/noto/NotoMono-Regular.ttf",
    "Cousine": "/usr/share/fonts/truetype/croscore/Cousine-Regular.ttf",
    "Hack": "/usr/share/fonts/truetype/hack/Hack-Regular.ttf",
}
PROPORTIONAL = ["DejaVu Sans", "DejaVu Serif", "Liberation Sans", "Liberation Serif", "Cantarell", "Arimo", "Tinos",
                "Open Sans"]
MONOSPACED = ["DejaVu Sans Mono", "Liberation Mono", "Noto Mono", "Cousine", "Hack"]
# Sizes in pixels at 96 dpi: 7, 8, 9, 10, 11, 12 and 13.5 pt.
SIZES = [9, 11, 12, 13, 15, 16, 18]

THEMES = {
    "light": {"background": (242, 242, 240), "panel": (255, 255, 255), "border": (190, 190, 196),
              "text": [(30, 30, 34), (60, 64, 72), (90, 90, 96)], "accent": (40, 90, 180), "bar": (225, 226, 230)},
    "dark": {"background": (30, 31, 34), "panel": (43, 45, 49), "border": (80, 82, 90),
             "text": [(220, 221, 222), (190, 200, 210), (150, 220, 140)], "accent": (110, 170, 255), "bar": (20, 21, 24)},
    # Low contrast: light grey on white (disabled fields, footers, muted themes), and dim grey on black.
    "pale": {"background": (250, 250, 250), "panel": (255, 255, 255), "border": (225, 225, 228),
             "text": [(150, 150, 150), (160, 162, 166), (140, 146, 156)], "accent": (130, 160, 210), "bar": (240, 240, 242)},
    "dim": {"background": (24, 24, 26), "panel": (32, 33, 36), "border": (60, 62, 66),
            "text": [(120, 120, 124), (110, 116, 124), (100, 130, 100)], "accent": (90, 120, 170), "bar": (18, 18, 20)},
}

WORDS = ("the status of your request was updated by support please check account details below and "
         "reply if anything looks wrong we will ship the order after payment clears invoice total "
         "includes tax build passed tests deploy staging production service restarted cache warmed "
         "user profile settings saved notes meeting tomorrow review pull request merged branch main").split()
FIRST = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "oscar",
         "peggy", "rupert", "sybil", "trent", "victor", "walter", "nadia", "yusuf", "li", "marta", "sofia", "tomas"]
LAST = ["smith", "jones", "garcia", "muller", "rossi", "dubois", "novak", "kowalski", "tanaka", "silva",
        "johansson", "nielsen", "obrien", "fischer", "moreau", "costa", "kim", "patel", "haddad", "weber"]
DOMAINS = ["example.com", "mail.example.org", "acme-corp.io", "northwind.co.uk", "contoso.net", "fabrikam.de",
           "globex.fr", "initech.com", "umbrella.example", "hooli.xyz"]


def luhn_digit(digits):
    total = 0
    for position, digit in enumerate(reversed(digits)):
        value = digit * 2 if position % 2 == 0 else digit
        total += value - 9 if value > 9 else value
    return (10 - total % 10) % 10


# Between a card's groups: a space, a dash, a dot, a no-break space; or no separator at all.
CARD_SEPARATORS = [" ", " ", "-", ".", "\u00a0", ""]


def card(rng, valid=True):
    kind = rng.choice(["visa", "visa", "mc", "mc2", "amex", "discover", "jcb"])
    prefix = {"visa": [4], "mc": [5, rng.randint(1, 5)], "mc2": [2, 2, rng.randint(3, 6)], "amex": [3, rng.choice([4, 7])],
              "discover": [6, 0, 1, 1], "jcb": [3, 5] + [int(d) for d in str(rng.randint(28, 89))]}[kind]
    length = 15 if kind == "amex" else 16
    digits = prefix + [rng.randint(0, 9) for _ in range(length - len(prefix) - 1)]
    check = luhn_digit(digits)
    if not valid:
        check = (check + rng.randint(1, 9)) % 10
    digits.append(check)
    text = "".join(map(str, digits))
    if kind == "amex":
        groups = [text[:4], text[4:10], text[10:]]
    else:
        groups = [text[i:i + 4] for i in range(0, 16, 4)]
    return rng.choice(CARD_SEPARATORS).join(groups)


def email(rng):
    first, last = rng.choice(FIRST), rng.choice(LAST)
    local = rng.choice([f"{first}.{last}", f"{first}{rng.randint(1, 99)}", f"{first[0]}.{last}",
                        f"{first}_{last}", f"{first}.{last}+news"])
    return f"{local}@{rng.choice(DOMAINS)}"


# The account part of each country's IBAN: n a digit, a an upper-case letter (the British and Dutch
# bank codes are real banks'). Positions the registry allows either in hold digits, as nearly all
# real French, Italian and Swiss accounts do.
IBAN_FORMATS = {
    "DE": "n" * 18, "GB": "B" + "n" * 14, "FR": "n" * 23, "NL": "B" + "n" * 10, "ES": "n" * 20,
    "IT": "a" + "n" * 22, "BE": "n" * 12, "AT": "n" * 16, "CH": "n" * 17, "PL": "n" * 24,
}
BANKS = {"GB": ["NWBK", "BARC", "HBUK", "LOYD", "MIDL", "WEST"], "NL": ["ABNA", "RABO", "INGB", "TRIO", "SNSB", "KNAB"]}


def iban(rng, valid=True):
    country = rng.choice(sorted(IBAN_FORMATS))
    account = "".join(rng.choice(BANKS[country]) if c == "B" else rng.choice(string.digits if c == "n" else string.ascii_uppercase)
                      for c in IBAN_FORMATS[country])
    number = int("".join(str(int(ch, 36)) for ch in account + country + "00"))
    check = 98 - number % 97
    if not valid:
        check = rng.choice([other for other in range(2, 99) if other != check])
    text = f"{country}{check:02d}{account}"
    if rng.random() < 0.7:
        return " ".join(text[i:i + 4] for i in range(0, len(text), 4))
    return text


BASE62 = string.ascii_letters + string.digits


def random_token(rng, length):
    return "".join(rng.choice(BASE62) for _ in range(length))


def key(rng):
    text = unsplit_key(rng)
    if rng.random() < 0.2:
        # Shown in groups, as some consoles print keys to be read out or copied by hand.
        size = rng.choice([4, 5, 8])
        return " ".join(text[i:i + size] for i in range(0, len(text), size))
    return text


def unsplit_key(rng):
    shape = rng.choice(["aws", "github", "openai", "slack", "stripe", "random"])
    if shape == "aws":
        return "AKIA" + "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(16))
    if shape == "github":
        return "ghp_" + random_token(rng, 36)
    if shape == "openai":
        return "sk-proj-" + random_token(rng, 40)
    if shape == "slack":
        return f"xoxb-{rng.randint(10**11, 10**12 - 1)}-{rng.randint(10**12, 10**13 - 1)}-{random_token(rng, 24)}"
    if shape == "stripe":
        return "sk_live_" + random_token(rng, 24)
    return random_token(rng, 40)


def hex_digits(rng, count):
    return "".join(rng.choice("0123456789abcdef") for _ in range(count))


def near_miss(rng):
    what = rng.choice(["luhn-invalid", "luhn-invalid", "uuid", "hash", "phone", "tracking", "order", "date", "iban-invalid"])
    if what == "luhn-invalid":
        return what, card(rng, valid=False)
    if what == "uuid":
        text = "-".join(hex_digits(rng, n) for n in (8, 4, 4, 4, 12))
        return what, text.upper() if rng.random() < 0.3 else text
    if what == "hash":
        return what, rng.choice([hex_digits(rng, 40), hex_digits(rng, 32), hex_digits(rng, 64)[:48],
                                 "sha256:" + hex_digits(rng, 40), hex_digits(rng, 12)])
    if what == "tracking":
        digits = lambda n: "".join(str(rng.randint(0, 9)) for _ in range(n))
        usps = rng.choice(["9400", "9205", "9361", "9374"]) + digits(18)
        ups = "1Z" + "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(6)) + digits(10)
        return what, rng.choice([" ".join(usps[i:i + 4] for i in range(0, 22, 4)), usps, ups,
                                 f"1Z {ups[2:5]} {ups[5:8]} {ups[8:10]} {ups[10:14]} {ups[14:]}",
                                 f"{digits(4)} {digits(4)} {digits(4)}", "JD01" + digits(16)])
    if what == "order":
        return what, rng.choice([f"ORD-{rng.randint(2020, 2026)}-{rng.randint(0, 999999):06d}",
                                 f"#{rng.randint(100, 999)}-{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}",
                                 f"{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}-{rng.randint(10, 99)}"])
    if what == "date":
        return what, rng.choice([f"{rng.randint(2019, 2027)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                                 f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/{rng.randint(2019, 2027)}",
                                 f"{rng.randint(1, 28):02d}.{rng.randint(1, 12):02d}.{rng.randint(2019, 2027)} "
                                 f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"])
    if what == "phone":
        return what, rng.choice([f"+1 ({rng.randint(200, 999)}) {rng.randint(200, 999)}-{rng.randint(1000, 9999)}",
                                 f"+44 20 {rng.randint(7000, 7999)} {rng.randint(1000, 9999)}",
                                 f"+49 30 {rng.randint(100000, 999999)}",
                                 f"+33 {rng.randint(1, 9)} {rng.randint(10, 99)} {rng.randint(10, 99)} {rng.randint(10, 99)} {rng.randint(10, 99)}",
                                 f"{rng.randint(200, 999)}.{rng.randint(200, 999)}.{rng.randint(1000, 9999)}",
                                 f"+1{rng.randint(2000000000, 9999999999)}",
                                 f"{rng.randint(200, 999)}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}"])
    return what, iban(rng, valid=False)


SECRETS = {"card": card, "email": email, "iban": iban, "key": key}
LABELS = {"card": ["Card number", "Card", "PAN"], "email": ["E-mail", "Contact", "Reply to"],
          "iban": ["IBAN", "Account", "Pay to"], "key": ["API key", "Token", "Secret"],
          "luhn-invalid": ["Reference", "Card (test)", "Ref"], "order": ["Order", "Order no.", "Ticket"],
          "date": ["Date", "Created", "Due"], "phone": ["Phone", "Mobile", "Call"],
          "iban-invalid": ["IBAN (old)", "Account", "Ref"], "hash": ["Commit", "Build", "Checksum"],
          "uuid": ["Request id", "Trace", "Device"], "tracking": ["Tracking", "Parcel", "Shipment"]}


class Canvas:
    def __init__(self, width, height, theme, rng):
        self.image = Image.new("RGB", (width, height), theme["background"])
        self.draw = ImageDraw.Draw(self.image)
        self.theme = theme
        self.rng = rng
        self.items = []

    def font(self, name, size):
        return ImageFont.truetype(FONTS[name], size)

    def text(self, x, y, text, font, colour, record=None):
        """Draws `text`; when `record` is (kind, what), stores its ink box in the truth."""
        x, y = int(round(x)), int(round(y))
        self.draw.text((x, y), text, font=font, fill=colour)
        width = self.draw.textlength(text, font=font)
        if record:
            left, top, right, bottom = self.draw.textbbox((x, y), text, font=font)
            mask = Image.new("L", (right - left + 4, bottom - top + 4), 0)
            ImageDraw.Draw(mask).text((x - left + 2, y - top + 2), text, font=font, fill=255)
            box = mask.point(lambda v: 255 if v >= 96 else 0).getbbox()
            if box:
                kind, what = record
                self.items.append({"kind": kind, "what": what, "text": text,
                                   "box": [left - 2 + box[0], top - 2 + box[1], box[2] - box[0], box[3] - box[1]],
                                   "font": font.getname()[0], "size": font.size})
        return x + width

    def words(self, count):
        return " ".join(self.rng.choice(WORDS) for _ in range(count))


def pick(rng, fits=lambda text: True):
    """A secret kind or a near-miss, with its text: (kind, what, text); kind is 'near-miss' for
    those. Only one that `fits` (its width in the place it goes); None after a few tries."""
    for _ in range(8):
        if rng.random() < 0.55:
            kind = rng.choice(["card", "email", "iban", "key"])
            choice = (kind, kind, SECRETS[kind](rng))
        else:
            what, text = near_miss(rng)
            choice = ("near-miss", what, text)
        if fits(choice[2]):
            return choice
    return None


def form(canvas, rng, area):
    x0, y0, x1, y1 = area
    theme = canvas.theme
    canvas.draw.rectangle(area, fill=theme["panel"], outline=theme["border"])
    size = rng.choice(SIZES)
    name = rng.choice(PROPORTIONAL)
    font = canvas.font(name, size)
    title = canvas.font(name, size + 3)
    canvas.text(x0 + 16, y0 + 12, rng.choice(["Payment details", "Account", "Billing", "Customer record"]), title, theme["accent"])
    y = y0 + 24 + size * 2
    row = size * 2 + 14
    box_x = x0 + 16 + int((x1 - x0) * 0.3)
    while y + row < y1:
        picked = pick(rng, lambda text: box_x + 16 + font.getlength(text) < x1 - 16)
        y += row
        if picked is None:
            continue
        y -= row
        kind, what, value = picked
        label = rng.choice(LABELS[what])
        canvas.text(x0 + 16, y + 6, label, font, theme["text"][1])
        canvas.draw.rectangle((box_x, y, x1 - 16, y + size + 14), outline=theme["border"], fill=theme["panel"])
        canvas.text(box_x + 8, y + 6, value, font, theme["text"][0], (kind, what))
        y += row


def terminal(canvas, rng, area):
    x0, y0, x1, y1 = area
    theme = canvas.theme
    dark = theme["background"][0] < 128
    canvas.draw.rectangle(area, fill=(12, 12, 14) if dark else (250, 250, 250), outline=theme["border"])
    size = rng.choice(SIZES)
    font = canvas.font(rng.choice(MONOSPACED), size)
    colour = theme["text"][2] if dark else (20, 20, 20) if theme is THEMES["light"] else theme["text"][0]
    y = y0 + 8
    while y + size + 6 < y1:
        before = rng.choice(["$ export TOKEN=", "$ echo ", "[info] user=", "> ", "$ curl -H 'X-Key: ", "note: "])
        picked = pick(rng, lambda text: x0 + 8 + font.getlength(before + text + "' ") < x1 - 8)
        if rng.random() < 0.5 and picked:
            kind, what, value = picked
            x = canvas.text(x0 + 8, y, before, font, colour)
            x = canvas.text(x, y, value, font, colour, (kind, what))
            if before.endswith("'"):
                x = canvas.text(x, y, "' " + canvas.words(2), font, colour)
            elif rng.random() < 0.5:
                rest = canvas.words(rng.randint(1, 4))
                if x + font.getlength(" " + rest) < x1 - 8:
                    canvas.text(x + font.getlength(" "), y, rest, font, colour)
        else:
            line = rng.choice(["$ ", "  ", "[ok] "]) + canvas.words(rng.randint(3, 9))
            while font.getlength(line) > x1 - x0 - 16:
                line = line.rsplit(" ", 1)[0]
            canvas.text(x0 + 8, y, line, font, colour)
        y += size + 6


def table(canvas, rng, area):
    x0, y0, x1, y1 = area
    theme = canvas.theme
    canvas.draw.rectangle(area, fill=theme["panel"], outline=theme["border"])
    size = rng.choice(SIZES)
    name = rng.choice(PROPORTIONAL + MONOSPACED)
    font = canvas.font(name, size)
    columns = 2
    width = (x1 - x0 - 16) // columns
    y = y0 + 8
    canvas.draw.rectangle((x0, y0, x1, y0 + size + 14), fill=theme["bar"])
    for column in range(columns):
        canvas.text(x0 + 8 + column * width, y, rng.choice(["Value", "Field", "Data"]), font, theme["text"][1])
    y += size + 18
    while y + size + 10 < y1:
        for column in range(columns):
            picked = pick(rng, lambda text: font.getlength(text) < width - 16)
            if picked:
                kind, what, value = picked
                canvas.text(x0 + 8 + column * width, y, value, font, theme["text"][0], (kind, what))
        canvas.draw.line((x0, y + size + 6, x1, y + size + 6), fill=theme["border"])
        y += size + 14


def ticket(canvas, rng, area):
    x0, y0, x1, y1 = area
    theme = canvas.theme
    canvas.draw.rectangle(area, fill=theme["panel"], outline=theme["border"])
    size = rng.choice(SIZES)
    font = canvas.font(rng.choice(PROPORTIONAL), size)
    y = y0 + 10
    while y + size + 8 < y1:
        x = canvas.text(x0 + 12, y, canvas.words(rng.randint(2, 5)).capitalize() + " ", font, theme["text"][0])
        picked = pick(rng, lambda text: x + font.getlength(text) < x1 - 12)
        if picked:
            kind, what, value = picked
            x = canvas.text(x, y, value, font, theme["text"][0], (kind, what))
            rest = " " + canvas.words(rng.randint(1, 4)) + "."
            if x + font.getlength(rest) < x1 - 12:
                canvas.text(x, y, rest, font, theme["text"][0])
        y += size + 9


LAYOUTS = [form, terminal, table, ticket]


def make(index, width, height, theme_name, rng):
    theme = THEMES[theme_name]
    canvas = Canvas(width, height, theme, rng)
    canvas.draw.rectangle((0, 0, width, 28), fill=theme["bar"])
    canvas.text(10, 7, "Activities   Files   Terminal   Mail   12:34", canvas.font("DejaVu Sans", 12), theme["text"][1])
    half = width // 2
    areas = [(12, 40, half - 6, height // 2 - 6), (half + 6, 40, width - 12, height // 2 - 6),
             (12, height // 2 + 6, half - 6, height - 12), (half + 6, height // 2 + 6, width - 12, height - 12)]
    layouts = LAYOUTS[:]
    rng.shuffle(layouts)
    for area, layout in zip(areas, layouts):
        layout(canvas, rng, area)
    return canvas


THEME_ORDER = ["light", "dark", "pale", "dim"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=16)
    parser.add_argument("--seed", type=int, default=None, help="the seed to draw with (a new one each run without it)")
    arguments = parser.parse_args()
    seed = arguments.seed if arguments.seed is not None else int.from_bytes(os.urandom(4), "big")
    print(f"text corpus seed {seed}", flush=True)
    os.makedirs(arguments.out, exist_ok=True)
    rng = random.Random(seed)
    truth = []
    for index in range(arguments.count):
        theme = THEME_ORDER[index % len(THEME_ORDER)]
        width, height = (1920, 1080) if index < 2 else (1280, 800)
        canvas = make(index, width, height, theme, rng)
        name = f"{index:02d}-{theme}.png"
        canvas.image.save(os.path.join(arguments.out, name), optimize=True)
        truth.append({"image": name, "theme": theme, "width": width, "height": height, "items": canvas.items})
    with open(os.path.join(arguments.out, "truth.json"), "w") as file:
        json.dump({"generator": "scripts/text-corpus.py", "seed": seed, "images": truth}, file, indent=1)
        file.write("\n")


if __name__ == "__main__":
    main()
