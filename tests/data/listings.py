"""listings：给测试清单工具自己用的文件，不属于哪一讲。一段清单用到了段外定义的函数。"""


def check_positive(x):
    if x <= 0:
        raise ValueError("要正数")


# --8<-- [start:uses_helper]
def double(x):
    check_positive(x)
    return 2 * x


print("加倍：", double(2))
# --8<-- [end:uses_helper]
