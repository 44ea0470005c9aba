import Foundation
import RegState
import RegStateOngoingAccess

/// RSA keys made once with `openssl genrsa 2048` and checked in: the simulated provider signs with them, so a
/// simulated world costs no key generation (it was over half of a short simulation campaign's time) and a seed
/// replays with the same key bits in every process. They sign simulated ID tokens only; nothing real trusts them.
package enum CheckedInKeys {
    /// The provider key every simulated world starts with.
    package static let provider: RSAPrivateKey? = key(0)
    /// Keys a simulated provider rotates to.
    package static let spares: [RSAPrivateKey] = (1...3).compactMap(key)

    private static func key(_ index: Int) -> RSAPrivateKey? {
        Data(base64Encoded: der[index].joined()).map { RSAPrivateKey(pkcs1DER: $0) }
    }

    /// PKCS #1 DER, base64, in lines.
    private static let der: [[String]] = [
        [
            "MIIEpAIBAAKCAQEAsRT9fDaxIdu2FWfgNWe8s493sP6PzLrM1s0WdDOCMfxxcDLKl3bshJU+igmJA9192x4U+/gbqxS4VUV2D3af",
            "X0GDcAK/yHDc+eU5dXiqWEMtsofQxgdee2upi4r5nMDFs5VmYG8Qh1ZdBqzxL0R5GnF6KQnrsa4ZPlNiWqbbW+u+wYvv+sXZEsm5",
            "iETvqJdvcEpcxKU5Fkdj4uhNOEu0XAGWC3hnl63xQmc/nChE5cHU/CEJDidKmYXxsR90vJ7/FrdFg0lqeI0u4+W81d5hfjV/4oNd",
            "D1Ph4zOAno+mio7nnezLj6dhfTO0eCN415KDR65MofV+qKNQ2lZT2HF9fwIDAQABAoIBABKDo00NWs+zbQIn7iUnR29unJEAzIAX",
            "N7ttjd9wUzhusF2OsefMI0ZpZDSCcrTYv4PdTUxa0Gm+rNcdgA511IvdCaT4ZJzMUA5AjRVfHFBGFc0IridGNfapdvyD9z0QWptA",
            "D4gdlJjRysAb7MuIWTEOlDseMmpNTY5aoXng4CZn/u6nXGuvaT4X9A1bpH+rYp4uESBAwINkQ3trxIAtx4Gussr/rk5gCeFAq6xX",
            "58SKHpUqRaly6UMyR4Rsf+oJHtPal6Qq0Kbn64S8eRPIQJdvd7ZOSoVE25ib1+MlhgxyDa2GIv8YbQGmWH1uWyOkNVbRdjY9MAT3",
            "TOYX+BAhJgECgYEA2E8HY+5ESG0qrpXll3XgaBL5+YQDiQJIhnIDvwfH3OTcGkF9CNcruWgsR2G+3QJ28jJgLKUfYluB6auYSZAM",
            "KC0yHSbiB+ibnS4A9QNz1tYbOfOG7v5SaBipc1AwLZUTXCKGaXlVFJXA4IO94HcQtdIMWfmd8blzk9lYkNDH90ECgYEA0ZNPYQtR",
            "HCw6FkFwwqECkAxwPtm+NAh1kRYO2fXY40qtwpAN2kQ7Xxu92WePXF0rYr13hvAbrqCEc/g6CsyXSmWn/09PcXFJM/vVnmqAfwL2",
            "lmsZsLxLHrlfvYo/ck9LpJrKV7q7p9a8IC4gOzKm1BJL1C6RAKyPKgwEjkWjBL8CgYEAxbuwkMwtRVvtyXyjTUpnIhw+wLXKGYOp",
            "0qUFAarWK/pVrfaxmtQ/VxSAbZxPwm7PVuVv/z/OqbXm0zmWU6DHTC7MgdOaigo7vnpgS5mlWf2NE/OnJG/92sS4mf3ynKiK8w1o",
            "e6B7gv7GOzaS609MSjlCKznBBUg2/C+SA4enVEECgYEAmbjqxazuXrLWHJL9qdU+MvjcsE045aO60KQUWq2o2/dgAtF1R786qWWI",
            "2NnMXxx8AV4mOVUPiQR2gzX1JQyygECWfH/pLrXA0x+KrjtCa2d6BhUi7+79Ttj8L+Qi667cNi3P84+lq9OnhBcxTxq1IeMVudo6",
            "Q/tOu7G6+bx8ebMCgYATZbdJh6owdXOJPfBj5B8HzptImflUrHGgx6KRmqDk9tmdDDpVx4bIeXFX+atp1h+IRj9vUrDeqmsmSmiM",
            "ZNzwYiEZ+qJagsjfL0VMVdaIkAjnw+3gCHNcw1aaD1XQadobQ8BKOMniLFb4QwesiZuIQjPXjVxuQ+GhBWQVQ+VvDA==",
        ],
        [
            "MIIEpAIBAAKCAQEAs2eu0Rnso+F2sXkw3bTDMl/+JdVEo+THFYhTVzzAqHHr0HbUJqTvpSRsTT9+wajEiJv56zF/tSjESW2KD9hn",
            "XAZ8YLZ6PD0d7QCQJYtt/l8ol10XaJemc258P7mJ8Rc4KmtJY1oL/rFQyCQtCK1BBMqYFTSYljjr9QzeKx9b2HCIlm9M4sUfCGqE",
            "V1EOOichBvOAlgzjTxDgDS5D7bBusSrniXXPJfjN3BenTQE0b8VlIn1jNFR/e6HQ4X2ryjUTr+idTVMk0OOPNKXCmyHgzwW/tJPT",
            "9h2CPcmGkkwPjo/YksOgjXPafmxZ9UgGW/v1xma9G3NdhpIUuEUXShUnPwIDAQABAoIBAD9YSJ2ELc3fee1IAT0G6jULN81b9BR6",
            "XuD3dZXD2bKgJsdAbcAHVKZWqfbMiJEQafRiPmgQ3iq07jmO98SIgFY55Aix5Y8HdV2NaVgYVwoNx2NKd01y3k67oBtQA6igrjAs",
            "GYl+7eVL7l38h/ocUmzCq9gw7f98sbOgi4FmXSOaYFCxrTEXPXGA82aKm4Qm5BdKoDBWRx9n5/xp1jBKLra2E+4rXP1lDyWqL6pC",
            "kdTYwGjy6Wil7WE2kGGGvEmx79zQUsSXeur9jj9w1zJCBHNAYBIQUFnYJeAem44IOxW3+7nGD6xWFdFKS5ikRwSKwWF1GaW8OpDu",
            "lq/WRKaeUsECgYEA7EL/iXY0A0RmsJ7kKZ+0xBt/yd+s6YNcMIe6HfTdN96OLRqggkKpxV4YEV3+beOGAmTt09q84NaMC8sNhtK5",
            "nf1Ti+0k8fn5BoJC99GHo6IYoAQyW80GDvk/0KZgPtZg23cBJKeSyJJEu06Xiqf2fGJGJ1U6qzOH3AhEI59yPwcCgYEAwmSsR56c",
            "irK645zVe5ssIbrr3VswDnFlvwGPu6d8LkWo3lGia16Su7p6BG1IS4heezF3G0fmDoY9457sE0LRx2a7Tnplsk2j2WbyGK6BsXTq",
            "bpBhy/NdG0qBtF2bnh4QFaYpT3x+rFNwRbcyaXZQX0elQ3pO0cZkoh01QLM7kAkCgYEA2L6CJb596v1mY+Pwl0r/j+VWb4G25Kbw",
            "/UiW8wJ/q9CNiE1kMPwtOXagB9a+IlvXxfyHvpJuMqpA4lTOvQA27vzHF5hgC2lzDoiUHTto/zIm+y2+cT9+rl/1Llpj82HCi7P6",
            "JYFiBIVDbr6kAb0jQGr7xvvGjecBXVdsA240ZiMCgYBd3r1urEINm/cxeIeCc9EgzKGfN6yCHPI0BS4CQQNvWMYN7T/QN1AGBSts",
            "vdTeXJC7ToykiNioBN0X8KMxPeANOSeT4vj+3A0WK2cW0hXguoOGNoRzNyaryhPOJDHEbeH4gk+KiaSl1HjvwWI/mRmAmRlN917e",
            "X74ypoYTozlM+QKBgQDC8dxuB1uu7NrqlTvhQ/+qMu6YXkomJ6MUK2C9mRU1MAH/pl6hZjKM5qgfCAucoE/sd0my2jGaXF05xcAB",
            "8EImRDevcP7s1NhVHbB86uR+BrXu3Oy1FEnqre5JCKidJlUI+gj98zaq7FOpyZsZIL7kz9Ks1BZZQ12HeMnEBFHXOg==",
        ],
        [
            "MIIEowIBAAKCAQEA0btmMho4yzSfUwDaDI/F7LtqEldi8TWJHuSBH4XVJz8BvALfEP3I6Ybog/15JpqRz1HoJ3jrhOHIBYhEASPR",
            "mnG2Wc0TKJFKTcC1OB43BGmYnI4FoepeJ2LFNYw58G+kkNr8AvpBfYnjM9423YfGyeD8ZDcJ2Jk0IFeZaqvBYrQxu9dTDkyqPHPk",
            "H9TwUlqhuqJi6q+Bg1O7VDxQFGStlR9620Iv3MfEYIwcsAJXU61Z3+KcD58T/enVNfdm8bId5OQ/Aj2Tmg4g+P6/QKhS1AsRJYhI",
            "YCiT9FzOBgA35/DY7f/Aoi+obucQDBZT7mtQIjKr8GSaMHB+X6Kk3bofVwIDAQABAoIBAClrL1r8p7OlsEM1m1o4uHcwadm2bUFC",
            "d9JkgQWHKhmmjUKidIgH/nnz3Q5X6+mOQ/Zj8At/i0+CQTyqdPeeqcGs7DyezcZIrxpc0M0E1oumCO/98inQPYjcriKNj1Gm0qKS",
            "xIsX/f/7T6XKIB6utjjfGCj4X5bpZoxukEsrITVLEdwCQEDa6vldx9+HEXRvGhD/4udQhmsQs8U43iMcEfqqyw6YqcXDEm5mTh5C",
            "OuT5ulFqlYPUV0YCG1GjZGZMKwaLXCyi4oFxLseqNUGW0Ygb61zjSRYy8w0oN3RQwvtoNKqholr0NVs4I14DEAda8lJW+H9ZgNAP",
            "d9IWEC5SpLECgYEA/K1LTcO091BTNqNW6cPI1TABC7OPj1aP11iJ2GNFw9LRqR4HCBTKLzPGt5Ka8Kg++JR15jDWFow5eQC4e+qY",
            "5oimPRYyByPUvHOKqvz/DE7pnZeYKlZMFJnMB7p0DCBkDcsJij1CLUYBYYWM5+VHtOuc8El2jaeayj5lZhjpVqcCgYEA1H2E8beY",
            "e8zj61dtFaYbOp+8eHiY6iR5nuTUNvP7dMG+qJlx8Cly3PniBBf8vEhNZDWUbft3+tYN0DEeFTbbAJ2Tv6PZAiy/mBwqc09rOU7+",
            "jO0EOVhHEOlC9Wt6TdEy5JOclKIijdVT4hanXilrklOQ/7zYi4yY5yQPZnWPt9ECgYBllJmAgtw+zMkXXyUyx2X25tyUwrRFMMyV",
            "C2AnYQmMBzYIoiy7f/gkb9FEvaiSdWETeEPJrfpziB4W2kZQcujTTT5fsoucOThuJpkp0poKbbMXivk+lAD0CzxuIvRCZ8cxkF2e",
            "eLAhGVK2zQTvuUpRnqMyKqaBnk7pXZpQKFWuYwKBgFdIV9uSNqhjuRtqhfxmhrjF9HznzKgg43RJOoJ4JcoH63EF1q931x695gEY",
            "eVA9wsxu1dF3ggke8/2Yr2q3Za4TDCWj//fMucaZizZiYQDhWd45XYrQoCBqMH7u7wYX8HfDyoWjM95eyl4MQCOFkBJDEUR7Jdfs",
            "oMIRJeJIWAiBAoGBAPG96Ridosj2ctXw+cbGU6c3u8+9aNYErz6DfWXZPoZqlsr6t5E+Li6/Ju4V/uzi6zAbiT8uoP6qncPWd2uN",
            "cWMxBRoyxoDbNEsmVowdapXWjnbv8Lc4HMlJ07tF1yUQ6yT+xRtBfaan0KN3gOx0xCNnkRAjLin+ua87+yOIFqRL",
        ],
        [
            "MIIEogIBAAKCAQEAvr2EQHDDOejeGgWTj1CpMrB0F5GwyTdaE37+FZIO9uabFXaSj/z0wd9RAiM7jD2ALhL75IVlRq0rlOKtJt6B",
            "flfgeHuJ9iX1p81bwqIROsnYw5o6f0jgzmjpSuEnEHie9FGmNvKGSnozBtGht49h6Oxxyye6us0XaGDsUG7BTK2LW5bgxr1uN/Cj",
            "gYbCjQ+dBtm5yGVh2Jzo3HOzYXveIr9qDIo5Q2CnQxobiGCYwtjS8LUEw3dQcF4v913OiXt/uRPqqwfBsfBdRCX2z8oIJtBDuOOb",
            "5IBT7WLINKiWDojZSmv7aGRdmS8xFzv5eZrP8/mExrdypyvg/KzVK/xsGQIDAQABAoIBABiDlTyOTDD5okM4O0DnOM+tyPCB23WI",
            "5SKYptbRM5YniNVR12qlCTSPhcL0vJb8t9LJbXvvFFc93gTfuymXMuUGLfBzeYWGrGikESqAbMl1nqPJAxf6dFYNkAonyhRTrvjZ",
            "3jcKpW1rViUxX7Y5Oc1XR2q45kaoIYgwiL6aSsKWrtO94k2tAsAS9s4tbD/ID0vsixRbVLy7LndKx/ZPN0fU8TjbhysUWMUP/whw",
            "FRaHqXnB9qLX0UDt5OPw9GwinNOLsQMyhMfZcq/RY646lxFjGKE+jI8AY/EMSFfsOfGKaVr1PDTE4oOB4znVCzU/nDeV0eLcy9KR",
            "UcBN4uS+Gg8CgYEA9xGEpl69jI2pJvm5ltNkdslzaQs2GlCoG53EuoCDFJkeesHGx5tEX1sPChTO93KvLxWK9o6HbPm2NKS7CQir",
            "mr21GZnxsC6gUdh9T3q6IfoZ3DQaI2o77LmGCtO2/YwqtvJNZJnelPoIMm27t0XT5EJsCKTyr7h73cJ6daK7fEcCgYEAxaK2dBDs",
            "Kx+0D571oHslB8Ft3O6xhzlXNxdd8LSKiCZCneTd0I6uRAtL+IKtEIpB53LkDqiPibgPBDABzmP7k4W3YG/FeGthg8as0+aea7bu",
            "s/AkTDPoWlUxL8DrYRatdFRshfqLf8wBkCT3eeZUYOPrNE+5I/KehDgODpbN5J8CgYAonfKmvzB+KNPEGo3OI9aCSL/2ZudwEA5y",
            "687psjLacgm2uKCLNBVbb8bbK2yS9YGjRfFgczIEUlEH+oTdCVXczI83ND2tbxzgF60SIeTzrQAPWWlqpQ5Q7ncA1KliqWZkSRU8",
            "Eqeq6ifq0mtnx8z724eTLDrRdIy4ej5TlHsqBQKBgG+20vV2n1ic+hYeX2+QTFU+9E//KKBsPC1q6vHly6y8G8nOlceO71iNHiti",
            "ClugGzKuEdVrWH+bZ/mQ/WRhxdIUspwzceboo91uD0FUSdZPOEzEAHCGot906nG41hQyUmfAVPvCrNnXQkbtbmocVTPTgZ83NUrp",
            "mMraOK/sdIO3AoGAe42OeoEfScOzfzO0nfLZb0krbp7XKKL+4EWzbVB+kcN76l6LrcmMt1k4fM0wQ1wt/A86y/qr2snsKHygQf06",
            "PTayIEgdUNPC4iUMI8sXE2GKs9oNUoChWI1K5pUgxszIgU34lVFwkCpt1Mh6/Um0IxEN0AC304PQRJgxHL8saTE=",
        ],
    ]
}
